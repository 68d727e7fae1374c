#include "sim/serving/kv_head_map.hpp"

#include <map>
#include <stdexcept>
#include <utility>

namespace lynxsim::serving {
namespace {

// Ranks of a TP group holding each head, in rank order.
std::vector<std::vector<int>> holders(int num_kv_heads, int tp) {
  std::vector<std::vector<int>> out(static_cast<std::size_t>(num_kv_heads));
  for (int r = 0; r < tp; ++r) {
    for (const int h : rank_kv_heads(num_kv_heads, tp, r)) out[static_cast<std::size_t>(h)].push_back(r);
  }
  return out;
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
  const auto sources = holders(num_kv_heads, src_tp);
  const auto needers = holders(num_kv_heads, dst_tp);
  std::map<std::pair<int, int>, int> heads;
  for (std::size_t h = 0; h < sources.size(); ++h) {
    const auto& from = sources[h];
    for (std::size_t j = 0; j < needers[h].size(); ++j) {
      ++heads[{from[j % from.size()], needers[h][j]}];
    }
  }
  std::vector<HeadFlow> flows;
  for (const auto& [pair, count] : heads) flows.push_back({pair.first, pair.second, count});
  return flows;
}

}  // namespace lynxsim::serving
