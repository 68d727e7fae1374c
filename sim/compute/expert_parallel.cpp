#include "sim/compute/expert_parallel.hpp"

#include <cmath>
#include <stdexcept>

namespace lynxsim {

Time all_to_all_time(const HardwareSpec& hw, int ranks, Bytes bytes_out_per_rank, double imbalance) {
  if (!(imbalance >= 1.0)) throw std::invalid_argument("expert load imbalance must be at least 1");
  if (ranks <= 1) return Time::zero();
  const double bus = hw.scale_up_bandwidth.value * hw.scale_up_efficiency;
  return Time::from_seconds(imbalance * bytes_out_per_rank.as_double() / bus) + hw.scale_up_latency +
         hw.scale_up_step_latency * (ranks - 1);
}

Time expert_parallel_layer_time(const HardwareSpec& hw, const ModelSpec& model, int ranks,
                                int tokens_per_rank, double imbalance) {
  if (!model.moe || ranks <= 1) return Time::zero();
  const double rows = static_cast<double>(tokens_per_rank) * model.moe->top_k * (ranks - 1) / ranks;
  const Bytes out{std::llround(rows * model.hidden_size * 2.0)};
  return all_to_all_time(hw, ranks, out, imbalance) * 2;
}

}  // namespace lynxsim
