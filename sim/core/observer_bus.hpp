#pragma once
// Typed publish/subscribe between models and observers.
//
// Models publish plain event structs (a flow finished, a decode step ended); metric collectors and
// trace writers subscribe to the types they care about. A model never writes a file and never knows
// who listens (SimGrid's plugin signals, OMNeT++'s signals). Delivery is synchronous, in subscription
// order, so observers see events in simulation order. Each event type gets a small process-wide
// index the first time it is used, so a publish costs one vector lookup, no hashing.

#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

namespace lynxsim {

class ObserverBus {
public:
  template <class Event>
  void subscribe(std::function<void(const Event&)> handler) {
    const std::size_t slot = slot_of<Event>();
    if (handlers_.size() <= slot) handlers_.resize(slot + 1);
    handlers_[slot].push_back(
        [h = std::move(handler)](const void* e) { h(*static_cast<const Event*>(e)); });
  }

  template <class Event>
  void publish(const Event& event) const {
    const std::size_t slot = slot_of<Event>();
    if (slot >= handlers_.size()) return;
    for (const auto& h : handlers_[slot]) h(&event);
  }

  template <class Event>
  bool has_subscribers() const {
    const std::size_t slot = slot_of<Event>();
    return slot < handlers_.size() && !handlers_[slot].empty();
  }

private:
  static std::size_t next_slot() {
    static std::atomic<std::size_t> count{0};
    return count++;
  }
  template <class Event>
  static std::size_t slot_of() {
    static const std::size_t slot = next_slot();
    return slot;
  }

  std::vector<std::vector<std::function<void(const void*)>>> handlers_;
};

}  // namespace lynxsim
