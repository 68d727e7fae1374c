#include "sim/serving/client.hpp"

#include <stdexcept>

namespace lynxsim::serving {

Client::Client(Simulator& sim, const ClientSpec& spec, Send send)
    : sim_(sim), spec_(spec), send_(std::move(send)), free_slots_(spec.concurrency) {
  if (spec.concurrency < 1) throw std::invalid_argument("a client needs a concurrency >= 1");
  if (spec.think_time < Time::zero()) throw std::invalid_argument("think time must be >= 0");
}

void Client::start(std::vector<RequestState*> order) {
  order_ = std::move(order);
  next_ = 0;
  if (!order_.empty()) wake_at(order_.front()->metrics.arrived_at);
}

void Client::wake_at(Time at) {
  timer_pending_ = true;
  sim_.schedule_at(at, [this] {
    timer_pending_ = false;
    pump();
  });
}

void Client::pump() {
  while (free_slots_ > 0 && next_ < order_.size()) {
    RequestState& r = *order_[next_];
    if (r.metrics.arrived_at > sim_.now()) {
      if (!timer_pending_) wake_at(r.metrics.arrived_at);
      return;
    }
    ++next_;
    --free_slots_;
    r.metrics.arrived_at = sim_.now();
    send_(r);
  }
}

void Client::free_slot() {
  ++free_slots_;
  pump();
}

// With a slot already free no request is waiting for one (pump() sent every ready request), so the
// slot returns at once; otherwise in an event of its own, so that the finishing instance is not
// re-entered by a send.
void Client::finished() {
  if (spec_.think_time == Time::zero() && free_slots_ > 0) {
    ++free_slots_;
    return;
  }
  sim_.schedule_in(spec_.think_time, [this] { free_slot(); });
}

}  // namespace lynxsim::serving
