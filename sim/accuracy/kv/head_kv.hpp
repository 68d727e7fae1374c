#pragma once
// The KV of one sampled (layer, KV head) of a model's geometry (sim/quant/kv_geometry.hpp).
//
// HeadKv holds one sampled block as the decode side would cache it: keys after RoPE and values, both
// row-major [tokens][head_dim] float32, plus the sampled queries (after RoPE, [n][head_dim]); query i
// sits at query_positions[i] and attends causally to the keys [0, query_positions[i]].

#include <vector>

#include "sim/quant/kv_geometry.hpp"

namespace lynxsim::accuracy {

using quant::KvGeometry;

struct HeadKv {
  int layer = 0;
  int kv_head = 0;
  int tokens = 0;
  int head_dim = 0;
  std::vector<float> keys;
  std::vector<float> values;
  std::vector<float> queries;
  std::vector<int> query_positions;

  int num_queries() const { return static_cast<int>(query_positions.size()); }
  const float* key(int t) const { return keys.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(head_dim); }
  const float* query(int i) const {
    return queries.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(head_dim);
  }
};

}  // namespace lynxsim::accuracy
