#pragma once
// The discrete-event engine.
//
// A Simulator owns the clock, the pending-event queue, the named random streams and the observer
// bus; there is no global state, so two simulators can run side by side in one process. It knows
// nothing of networks, GPUs or LLMs: models schedule closures and publish events. run() pops events
// in (time, sequence) order until no strong work is pending, stop() is called, or the time limit
// passes; scheduling in the past is a logic error. Weak events (schedule_weak_at) are those of
// sources that would go on for ever (a repeating bandwidth trace, a background sender): they fire
// in order while strong work is pending and never keep a run alive, so a run ends at its last
// strong event and the clock stays there. Strong work is a strong event in the queue or a hold: a
// model holds the run while it has work that waits on weak events (a flow stalled by a link a
// bandwidth trace took down, until the trace restores it).

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "sim/core/event_queue.hpp"
#include "sim/core/observer_bus.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/time.hpp"

namespace lynxsim {

class Simulator {
public:
  explicit Simulator(std::uint64_t seed = 1) : seed_(seed) {}

  Time now() const { return now_; }
  std::uint64_t seed() const { return seed_; }

  EventId schedule_at(Time at, EventQueue::Action action);
  EventId schedule_in(Time delay, EventQueue::Action action) {
    return schedule_at(now_ + delay, std::move(action));
  }
  EventId schedule_weak_at(Time at, EventQueue::Action action);
  // As schedule_at, weak when `weak` (how a model schedules on behalf of weak work).
  EventId schedule_maybe_weak(Time at, EventQueue::Action action, bool weak);
  // Sequence numbers set aside now for events scheduled later (event_queue.hpp).
  std::uint64_t reserve_sequences(std::uint64_t n) { return queue_.reserve_sequences(n); }
  EventId schedule_reserved(Time at, std::uint64_t sequence, EventQueue::Action action);
  bool cancel(EventId id) { return queue_.cancel(id); }
  bool pending(EventId id) const { return queue_.pending(id); }

  // Runs until no strong event is left (or stop()); returns the number of events executed.
  std::uint64_t run();
  // Runs every event with time <= limit (weak ones included), then sets the clock to limit.
  std::uint64_t run_until(Time limit);
  void stop() { stopped_ = true; }
  // Holds (+1) or releases (-1) the run: while any hold is taken, weak events run like strong ones.
  void hold(int delta) { holds_ += delta; }

  std::uint64_t events_executed() const { return executed_; }
  // Counts n events that a model folded into the one now running, as if each had run.
  void credit_events(std::uint64_t n) { executed_ += n; }
  // Whether the event now running shares its time with an event run before it or still pending.
  bool shares_time() const {
    return previous_at_ == now_ || (!queue_.empty() && queue_.next_time() == now_);
  }
  std::size_t events_pending() const { return queue_.size(); }

  RngStream& rng(std::string_view name);
  ObserverBus& bus() { return bus_; }
  const ObserverBus& bus() const { return bus_; }

private:
  std::uint64_t run_events(Time limit, bool strong_only);

  std::uint64_t seed_;
  Time now_ = Time::zero();
  Time previous_at_ = Time::max();
  EventQueue queue_;
  ObserverBus bus_;
  std::map<std::string, RngStream, std::less<>> streams_;
  std::uint64_t executed_ = 0;
  std::int64_t holds_ = 0;
  bool stopped_ = false;
};

}  // namespace lynxsim
