#include "sim/serving/kv_head_map.hpp"

#include <stdexcept>

namespace lynxsim::serving {
namespace {

struct RankRange {
  long long first = 0;
  long long end = 0;
};

// The ranks of a TP group of `tp` ranks holding head h, a contiguous range in rank order: rank
// floor(h t / n) when t <= n, the ranks r with floor(r n / t) = h otherwise.
RankRange holders(int num_kv_heads, int tp, int h) {
  const auto n = static_cast<long long>(num_kv_heads);
  const auto t = static_cast<long long>(tp);
  if (tp <= num_kv_heads) return {h * t / n, h * t / n + 1};
  return {(h * t + n - 1) / n, ((h + 1) * t + n - 1) / n};
}

}  // namespace

std::vector<int> rank_kv_heads(int num_kv_heads, int tp, int rank) {
  if (num_kv_heads < 1 || tp < 1 || rank < 0 || rank >= tp) {
    throw std::invalid_argument("KV heads and tensor parallelism must be >= 1, rank within tp");
  }
  const auto n = static_cast<long long>(num_kv_heads);
  if (tp > num_kv_heads) return {static_cast<int>(rank * n / tp)};
  std::vector<int> heads;
  for (int h = 0; h < num_kv_heads; ++h) {
    if (h * static_cast<long long>(tp) / n == rank) heads.push_back(h);
  }
  return heads;
}

std::vector<HeadFlow> kv_head_flows(int num_kv_heads, int src_tp, int dst_tp) {
  if (num_kv_heads < 1 || src_tp < 1 || dst_tp < 1) {
    throw std::invalid_argument("KV heads and tensor parallelism must be >= 1");
  }
  std::vector<int> heads(static_cast<std::size_t>(src_tp) * static_cast<std::size_t>(dst_tp), 0);
  for (int h = 0; h < num_kv_heads; ++h) {
    const RankRange from = holders(num_kv_heads, src_tp, h);
    const RankRange to = holders(num_kv_heads, dst_tp, h);
    for (long long j = 0; to.first + j < to.end; ++j) {
      const long long src = from.first + j % (from.end - from.first);
      ++heads[static_cast<std::size_t>(src * dst_tp + to.first + j)];
    }
  }
  std::vector<HeadFlow> flows;
  for (std::size_t i = 0; i < heads.size(); ++i) {
    if (heads[i] == 0) continue;
    const auto src = static_cast<int>(i / static_cast<std::size_t>(dst_tp));
    flows.push_back({src, static_cast<int>(i % static_cast<std::size_t>(dst_tp)), heads[i]});
  }
  return flows;
}

}  // namespace lynxsim::serving
