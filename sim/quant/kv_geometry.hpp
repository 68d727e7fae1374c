#pragma once
// The part of a model card that shapes the KV cache, shared by the layers that size it (serving)
// and measure it (accuracy): layers, query heads, KV heads (grouped-query attention: query head h
// reads KV head h / (num_heads / num_kv_heads)), head dimension and the RoPE base. A KV head holds
// 2 (K, V) x head_dim values per token and layer.
//
// Beyond that dense shape (docs/models.md): an MLA model stores one latent of head_dim values per
// token and layer, shared by every query head (kv_tensors 1, num_kv_heads 1); sliding_layers of
// the layers keep at most sliding_window tokens; linear_layers keep a fixed state of
// linear_state_values values per sequence instead of per-token KV, split over the KV heads like
// the heads' share of the model.
//
// What the precision measurement needs beyond the byte counts: layer_pattern (letters F, S, L
// repeated over the layers, empty = all F; sim/compute/model_layers.hpp) says which layer is which;
// latent_rope_dim is the trailing RoPE part of an MLA latent (DeepSeek-V3: 64 of 576); the linear
// layers' state is linear_value_heads matrices of linear_key_head_dim x linear_value_head_dim
// (plus a small convolution state that is not measured).

#include <cstdint>
#include <string>

namespace lynxsim::quant {

struct KvGeometry {
  std::string model;
  int num_layers = 0;
  int num_kv_heads = 0;
  int num_heads = 0;
  int head_dim = 0;
  double rope_theta = 0.0;
  int kv_tensors = 2;
  int sliding_layers = 0;
  int sliding_window = 0;
  int linear_layers = 0;
  std::int64_t linear_state_values = 0;
  std::string layer_pattern = "";
  int latent_rope_dim = 0;
  int linear_value_heads = 0;
  int linear_key_head_dim = 0;
  int linear_value_head_dim = 0;

  void validate() const;  // throws std::invalid_argument naming the bad field
  int group_size() const { return num_heads / num_kv_heads; }
  bool dense() const { return kv_tensors == 2 && sliding_layers == 0 && linear_layers == 0; }
  int full_layers() const { return num_layers - sliding_layers - linear_layers; }
  bool latent() const { return kv_tensors == 1 && latent_rope_dim > 0; }
  // 'F', 'S' or 'L': the kind of layer `layer` under layer_pattern.
  char layer_letter(int layer) const;
  std::string canonical() const;
};

}  // namespace lynxsim::quant
