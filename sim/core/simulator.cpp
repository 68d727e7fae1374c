#include "sim/core/simulator.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace lynxsim {

EventId Simulator::schedule_at(Time at, EventQueue::Action action) {
  return schedule_maybe_weak(at, std::move(action), false);
}

EventId Simulator::schedule_weak_at(Time at, EventQueue::Action action) {
  return schedule_maybe_weak(at, std::move(action), true);
}

EventId Simulator::schedule_maybe_weak(Time at, EventQueue::Action action, bool weak) {
  if (at < now_) {
    throw std::logic_error(fmt::format("event scheduled at {} ps, before now ({} ps)", at.ps(),
                                       now_.ps()));
  }
  return queue_.push(at, std::move(action), weak);
}

EventId Simulator::schedule_reserved(Time at, std::uint64_t sequence, EventQueue::Action action) {
  if (at < now_) {
    throw std::logic_error(fmt::format("event scheduled at {} ps, before now ({} ps)", at.ps(),
                                       now_.ps()));
  }
  return queue_.push_reserved(at, sequence, std::move(action));
}

std::uint64_t Simulator::run() { return run_events(Time::max(), true); }

std::uint64_t Simulator::run_until(Time limit) { return run_events(limit, false); }

std::uint64_t Simulator::run_events(Time limit, bool strong_only) {
  stopped_ = false;
  std::uint64_t count = 0;
  const auto live = [this, strong_only] {
    return !queue_.empty() && (!strong_only || holds_ > 0 || queue_.strong_size() > 0);
  };
  while (!stopped_ && live() && queue_.next_time() <= limit) {
    auto fired = queue_.pop();
    previous_at_ = executed_ > 0 ? now_ : Time::max();
    now_ = fired.at;
    fired.action();
    ++count;
    ++executed_;
  }
  if (!stopped_ && limit != Time::max() && now_ < limit) now_ = limit;
  return count;
}

RngStream& Simulator::rng(std::string_view name) {
  auto it = streams_.find(name);
  if (it == streams_.end()) {
    it = streams_.emplace(std::string(name), RngStream::named(seed_, name)).first;
  }
  return it->second;
}

}  // namespace lynxsim
