#pragma once
// The attention geometry a measurement needs, and the KV of one sampled (layer, KV head).
//
// KvGeometry is the part of a model card that shapes the KV cache: layers, query heads, KV heads
// (grouped-query attention: query head h reads KV head h / (num_heads / num_kv_heads)), head dimension
// and the RoPE base. It is a plain struct so that this layer needs no model-card type.
//
// HeadKv holds one sampled block as the decode side would cache it: keys after RoPE and values, both
// row-major [tokens][head_dim] float32, plus the sampled queries (after RoPE, [n][head_dim]); query i
// sits at query_positions[i] and attends causally to the keys [0, query_positions[i]].

#include <string>
#include <vector>

namespace lynxsim::accuracy {

struct KvGeometry {
  std::string model;
  int num_layers = 0;
  int num_kv_heads = 0;
  int num_heads = 0;
  int head_dim = 0;
  double rope_theta = 0.0;

  void validate() const;  // throws std::invalid_argument naming the bad field
  int group_size() const { return num_heads / num_kv_heads; }
  std::string canonical() const;
};

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
