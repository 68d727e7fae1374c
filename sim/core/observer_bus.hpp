#pragma once
// Typed publish/subscribe between models and observers.
//
// Models publish plain event structs (a flow finished, a decode step ended); metric collectors and
// trace writers subscribe to the types they care about. A model never writes a file and never knows
// who listens (SimGrid's plugin signals, OMNeT++'s signals). Delivery is synchronous, in subscription
// order, so observers see events in simulation order.

#include <functional>
#include <typeindex>
#include <unordered_map>
#include <vector>

namespace lynxsim {

class ObserverBus {
public:
  template <class Event>
  void subscribe(std::function<void(const Event&)> handler) {
    handlers_[std::type_index(typeid(Event))].push_back(
        [h = std::move(handler)](const void* e) { h(*static_cast<const Event*>(e)); });
  }

  template <class Event>
  void publish(const Event& event) const {
    const auto it = handlers_.find(std::type_index(typeid(Event)));
    if (it == handlers_.end()) return;
    for (const auto& h : it->second) h(&event);
  }

  template <class Event>
  bool has_subscribers() const {
    return handlers_.contains(std::type_index(typeid(Event)));
  }

private:
  std::unordered_map<std::type_index, std::vector<std::function<void(const void*)>>> handlers_;
};

}  // namespace lynxsim
