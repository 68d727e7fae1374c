#pragma once
// Typed publish/subscribe between models and observers.
//
// Models publish plain event structs (a flow finished, a decode step ended); metric collectors and
// trace writers subscribe to the types they care about. A model never writes a file and never knows
// who listens (SimGrid's plugin signals, OMNeT++'s signals). Delivery is synchronous, in subscription
// order, so observers see events in simulation order. Each event type gets a small process-wide
// index the first time it is used, so a publish costs one vector lookup, no hashing, and one call
// per handler (each slot holds the handlers of its type, typed).

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace lynxsim {

class ObserverBus {
public:
  template <class Event>
  void subscribe(std::function<void(const Event&)> handler) {
    const std::size_t slot = slot_of<Event>();
    if (lists_.size() <= slot) lists_.resize(slot + 1);
    if (!lists_[slot]) lists_[slot] = std::make_unique<List<Event>>();
    static_cast<List<Event>&>(*lists_[slot]).handlers.push_back(std::move(handler));
  }

  template <class Event>
  void publish(const Event& event) const {
    const std::size_t slot = slot_of<Event>();
    if (slot >= lists_.size() || !lists_[slot]) return;
    for (const auto& h : static_cast<const List<Event>&>(*lists_[slot]).handlers) h(event);
  }

  template <class Event>
  bool has_subscribers() const {
    const std::size_t slot = slot_of<Event>();
    return slot < lists_.size() && lists_[slot] != nullptr;
  }

private:
  struct AnyList {
    virtual ~AnyList() = default;
  };
  template <class Event>
  struct List : AnyList {
    std::vector<std::function<void(const Event&)>> handlers;
  };

  static std::size_t next_slot() {
    static std::atomic<std::size_t> count{0};
    return count++;
  }
  template <class Event>
  static std::size_t slot_of() {
    static const std::size_t slot = next_slot();
    return slot;
  }

  std::vector<std::unique_ptr<AnyList>> lists_;  // by event slot; null until the first subscriber
};

}  // namespace lynxsim
