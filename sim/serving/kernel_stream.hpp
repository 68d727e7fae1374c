#pragma once
// A GPU's stream of KV kernels (encode on the prefill GPU, decode and merge on the decode GPU).
//
// Kernels on one stream run one after another in submission order: a kernel submitted at t with
// duration d starts at max(t, busy_until) and ends d later. The stream is a bookkeeping object;
// the caller schedules the completion event at the returned time.

#include "sim/core/time.hpp"

namespace lynxsim::serving {

class KernelStream {
public:
  Time submit(Time ready_at, Time duration) {
    const Time start = max(ready_at, busy_until_);
    busy_until_ = start + duration;
    return busy_until_;
  }
  Time busy_until() const { return busy_until_; }

private:
  Time busy_until_ = Time::zero();
};

}  // namespace lynxsim::serving
