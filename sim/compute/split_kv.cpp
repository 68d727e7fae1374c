#include "sim/compute/split_kv.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace lynxsim {
namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

constexpr int kMaxSplits = 128;
constexpr double kNoSplitOccupancy = 0.8;
constexpr double kEfficiencyShare = 0.85;

}  // namespace

int split_kv_block_tokens(int head_dim) {
  if (head_dim <= 64) return 256;
  return head_dim <= 128 ? 128 : 64;
}

int split_kv_splits(int units, int sm_count, int table_blocks) {
  if (units >= kNoSplitOccupancy * sm_count) return 1;
  const int most = std::min({kMaxSplits, sm_count, table_blocks});
  std::vector<double> efficiency(static_cast<std::size_t>(most) + 1, 0.0);
  double best = 0.0;
  for (int s = 1; s <= most; ++s) {
    if (s > 1 && ceil_div(table_blocks, s) == ceil_div(table_blocks, s - 1)) continue;
    const double waves = static_cast<double>(units) * s / sm_count;
    efficiency[static_cast<std::size_t>(s)] = waves / std::ceil(waves);
    best = std::max(best, efficiency[static_cast<std::size_t>(s)]);
  }
  for (int s = 1; s <= most; ++s) {
    if (efficiency[static_cast<std::size_t>(s)] > 0.0 &&
        efficiency[static_cast<std::size_t>(s)] >= kEfficiencyShare * best) {
      return s;
    }
  }
  return 1;
}

SplitKvLayout split_kv_layout(int units, int context_blocks, int table_blocks, int sm_count) {
  if (units < 1 || sm_count < 1 || table_blocks < 1 || context_blocks < 0 ||
      context_blocks > table_blocks) {
    throw std::invalid_argument("split-KV layout needs positive units, SMs and table blocks");
  }
  SplitKvLayout layout;
  layout.splits = split_kv_splits(units, sm_count, table_blocks);
  const int per_split = ceil_div(table_blocks, layout.splits);
  const int working = std::min(layout.splits, ceil_div(context_blocks, per_split));
  if (layout.splits == 1) {
    layout.busiest_sm_blocks = ceil_div(units, sm_count) * context_blocks;
    return layout;
  }
  std::vector<int> load(static_cast<std::size_t>(sm_count), 0);
  for (int unit = 0; unit < units; ++unit) {
    for (int k = 0; k < working; ++k) {
      const int sm = (unit * layout.splits + k) % sm_count;
      load[static_cast<std::size_t>(sm)] += std::min(per_split, context_blocks - k * per_split);
    }
  }
  layout.busiest_sm_blocks = *std::max_element(load.begin(), load.end());
  return layout;
}

}  // namespace lynxsim
