#pragma once
// The shape of a dense decoder-only transformer (Llama architecture: grouped-query attention,
// gated MLP with gate/up/down projections, untied or tied LM head), as a model card describes it.
//
// Weights per layer, in parameters:
//   attention  q: hidden * heads * head_dim        o: heads * head_dim * hidden
//              k, v: hidden * kv_heads * head_dim each
//   MLP        gate, up: hidden * ffn_dim each     down: ffn_dim * hidden
// so linear_params_per_layer() = hidden * head_dim * (2 * heads + 2 * kv_heads) + 3 * hidden * ffn.
// Norms and biases are ignored (< 0.1% of the weights). The LM head is vocab * hidden.
//
// KV cache per token in BF16: 2 (K and V) * layers * kv_heads * head_dim * 2 bytes.
// num_params is the card's published total (embeddings included) and is informational; the timing
// model uses the per-layer shapes.

#include <string>

#include "sim/core/units.hpp"

namespace lynxsim {

struct ModelSpec {
  std::string name;
  std::string description;
  int num_layers = 0;
  int hidden_size = 0;
  int num_heads = 0;
  int num_kv_heads = 0;
  int head_dim = 0;
  int ffn_dim = 0;
  int vocab_size = 0;
  double num_params = 0.0;
  double rope_theta = 0.0;
  int max_context = 0;

  // 2 * layers * kv_heads * head_dim * 2 bytes.
  Bytes kv_bytes_per_token_bf16() const;
  // K and V of one layer for one token, BF16: 2 * kv_heads * head_dim * 2 bytes.
  Bytes kv_bytes_per_token_per_layer_bf16() const;
  // Parameters of the QKV, O, gate, up and down projections of one layer.
  double linear_params_per_layer() const;
  // vocab * hidden.
  double lm_head_params() const;
};

// One line for `lynxsim list`: name, layers, heads/kv heads, params, KV per token.
std::string describe(const ModelSpec& model);

}  // namespace lynxsim
