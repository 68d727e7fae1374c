#include "sim/compute/timing_model.hpp"

namespace lynxsim {

Time TimingModel::allreduce_time(Bytes bytes) const { return tp_allreduce(tp_, bytes); }

Time TimingModel::tp_allreduce(int ranks, Bytes bytes) const {
  const Time ring = ring_allreduce(hw_, ranks, bytes);
  if (ranks <= 1 || !engine_ || bytes.value > engine_->small_allreduce_max_bytes) return ring;
  return min(ring, ring_transfer(hw_, ranks, bytes) + engine_->small_allreduce_latency);
}

Time TimingModel::ring_transfer(const HardwareSpec& hw, int ranks, Bytes bytes) {
  const double factor = 2.0 * (ranks - 1) / ranks;
  const double bus = hw.scale_up_bandwidth.value * hw.scale_up_efficiency;
  return Time::from_seconds(factor * bytes.as_double() / bus);
}

Time TimingModel::ring_allreduce(const HardwareSpec& hw, int ranks, Bytes bytes) {
  if (ranks <= 1) return Time::zero();
  const Time transfer = ring_transfer(hw, ranks, bytes);
  const Time steps = hw.scale_up_step_latency * (2 * (ranks - 1));
  const Time simple = transfer + hw.scale_up_latency + steps;
  if (hw.scale_up_ll_latency <= Time::zero()) return simple;
  return min(simple, transfer * 2 + hw.scale_up_ll_latency + steps);
}

}  // namespace lynxsim
