#include "sim/compute/expert_parallel.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lynxsim {

ExpertParallelLayout default_layout(const ModelSpec& model, int tensor_parallel, bool prefill) {
  ExpertParallelLayout layout;
  layout.load_imbalance = kEplbLoadImbalance;
  if (!model.moe || !model.attention.mla) return layout;
  int attention_tp = 1;
  for (const int a : {4, 2}) {
    if (prefill && tensor_parallel % a == 0) {
      attention_tp = a;
      break;
    }
  }
  layout.attention_dp = tensor_parallel / attention_tp;
  layout.expert_parallel = tensor_parallel;
  return layout;
}

void check_layout(const ExpertParallelLayout& layout, int tensor_parallel, bool moe) {
  if (layout.attention_dp < 1 || tensor_parallel % layout.attention_dp != 0) {
    throw std::invalid_argument("attention_dp must divide tp");
  }
  if (layout.expert_parallel != 1 && layout.expert_parallel != tensor_parallel) {
    throw std::invalid_argument("expert_parallel must be 1 or tp");
  }
  if (layout.expert_parallel > 1 && !moe) {
    throw std::invalid_argument("expert_parallel > 1 needs a model card with a moe section");
  }
  if (!(layout.load_imbalance >= 1.0)) throw std::invalid_argument("expert load imbalance must be at least 1");
  if (layout.node_gpus < 1) throw std::invalid_argument("node_gpus must be at least 1");
}

AllToAllSplit all_to_all_split(const HardwareSpec& hw, int ranks, Bytes bytes_out_per_rank,
                               double imbalance, int node_gpus) {
  if (!(imbalance >= 1.0)) throw std::invalid_argument("expert load imbalance must be at least 1");
  AllToAllSplit split;
  if (ranks <= 1) return split;
  split.local_ranks = std::min(std::max(node_gpus, 1), ranks);
  const double bytes = bytes_out_per_rank.as_double();
  const double in_node = bytes * (split.local_ranks - 1.0) / (ranks - 1.0);
  split.across_bytes = bytes - in_node;
  split.in_node_s = imbalance * (in_node / (hw.scale_up_bandwidth.value * hw.scale_up_efficiency));
  split.latency = hw.scale_up_latency + hw.scale_up_step_latency * (ranks - 1);
  return split;
}

Time all_to_all_time(const HardwareSpec& hw, int ranks, Bytes bytes_out_per_rank, double imbalance,
                     int node_gpus) {
  const AllToAllSplit split = all_to_all_split(hw, ranks, bytes_out_per_rank, imbalance, node_gpus);
  if (ranks <= 1) return Time::zero();
  const double out_rate = hw.nic_bandwidth.value / 8.0 * kScaleOutEfficiency;
  if (split.across_bytes > 0.0 && !(out_rate > 0.0)) {
    throw std::invalid_argument("expert parallelism across nodes needs the GPU's nic_bandwidth");
  }
  const double out_s = split.across_bytes > 0.0 ? imbalance * (split.across_bytes / out_rate) : 0.0;
  return Time::from_seconds(std::max(split.in_node_s, out_s)) + split.latency;
}

namespace {

Bytes dispatch_bytes_per_rank(const ModelSpec& model, int ranks, int tokens_per_rank) {
  const double rows = static_cast<double>(tokens_per_rank) * model.moe->top_k * (ranks - 1) / ranks;
  return Bytes{std::llround(rows * model.hidden_size * 2.0)};
}

}  // namespace

Time expert_parallel_layer_time(const HardwareSpec& hw, const ModelSpec& model, int ranks,
                                int tokens_per_rank, double imbalance, int node_gpus) {
  if (!model.moe || ranks <= 1) return Time::zero();
  const Bytes out = dispatch_bytes_per_rank(model, ranks, tokens_per_rank);
  return all_to_all_time(hw, ranks, out, imbalance, node_gpus) * 2;
}

ExpertTraffic expert_parallel_traffic(const HardwareSpec& hw, const ModelSpec& model, int ranks,
                                      int tokens_per_rank, double imbalance, int node_gpus) {
  ExpertTraffic traffic;
  if (!model.moe || ranks <= 1) return traffic;
  const Bytes out = dispatch_bytes_per_rank(model, ranks, tokens_per_rank);
  const AllToAllSplit split = all_to_all_split(hw, ranks, out, imbalance, node_gpus);
  traffic.in_node_s = 2.0 * split.in_node_s;
  traffic.latency = split.latency * 2;
  if (ranks > split.local_ranks) {
    traffic.pair_bytes = 2.0 * imbalance * split.across_bytes / (ranks - split.local_ranks);
  }
  return traffic;
}

}  // namespace lynxsim
