#pragma once
// The part of a model card that shapes the KV cache, shared by the layers that size it (serving)
// and measure it (accuracy): layers, query heads, KV heads (grouped-query attention: query head h
// reads KV head h / (num_heads / num_kv_heads)), head dimension and the RoPE base. A KV head holds
// 2 (K, V) x head_dim values per token and layer.

#include <string>

namespace lynxsim::quant {

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

}  // namespace lynxsim::quant
