#pragma once
// A GPU's stream of KV kernels (encode on the prefill GPU, decode and merge on the decode GPU).
//
// Kernels on one stream run one after another in submission order: a kernel submitted at t with
// duration d starts at max(t, busy_until) and ends d later. The stream is a bookkeeping object;
// the caller schedules the completion event at the returned time.
//
// The stream remembers when its kernels ran, so that work sharing the GPU can be charged for them:
// busy_within(a, b) is the kernel time inside [a, b). forget_before(t) drops kernels that ended by
// t (no later question may start before t). A listener, if set, hears the start of each kernel
// with a positive duration before it is recorded (the decode instance sharing the GPU).

#include <deque>
#include <functional>

#include "sim/core/time.hpp"

namespace lynxsim::serving {

class KernelStream {
public:
  void on_submit(std::function<void(Time start)> listener) { listener_ = std::move(listener); }

  Time submit(Time ready_at, Time duration) {
    const Time start = max(ready_at, busy_until_);
    if (listener_ && duration > Time::zero()) listener_(start);
    busy_until_ = start + duration;
    if (duration > Time::zero()) {
      if (!runs_.empty() && runs_.back().end == start) runs_.back().end = busy_until_;
      else runs_.push_back({start, busy_until_});
    }
    return busy_until_;
  }
  Time busy_until() const { return busy_until_; }

  Time busy_within(Time from, Time to) const {
    Time busy = Time::zero();
    for (const Run& r : runs_) {
      if (r.start >= to) break;
      const Time a = max(r.start, from);
      const Time b = min(r.end, to);
      if (b > a) busy += b - a;
    }
    return busy;
  }

  void forget_before(Time t) {
    while (!runs_.empty() && runs_.front().end <= t) runs_.pop_front();
  }

private:
  struct Run {
    Time start;
    Time end;
  };
  Time busy_until_ = Time::zero();
  std::deque<Run> runs_;
  std::function<void(Time)> listener_;
};

}  // namespace lynxsim::serving
