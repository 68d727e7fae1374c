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
//
// A card may add an attention layout (MLA, sliding-window and linear-attention layers) and a
// mixture-of-experts FFN (model_layers.hpp); the per-layer quantities below are then averages over
// the layers (their sum over layers is exact), and the KV of a request of C tokens is
// kv_bytes_bf16(C).
//
// Weights are stored in a format per part (weight_format.hpp): attention projections, dense FFNs
// with shared experts and routers, routed experts; the LM head is BF16.

#include <cstdint>
#include <optional>
#include <string>

#include "sim/compute/model_layers.hpp"
#include "sim/compute/weight_format.hpp"
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
  AttentionLayout attention;
  std::optional<MoeSpec> moe;
  int weight_bits = 16;  // value bits of the card's weight_format
  WeightFormats weights;  // the projections' formats by part; LM head BF16
  GemmDemand gemm_precision = GemmDemand::automatic;

  // KV of one token in every F and S layer: kv_bytes_per_token_per_layer_bf16() * (F + S layers).
  Bytes kv_bytes_per_token_bf16() const;
  // One F or S layer for one token, BF16: 2 * kv_heads * head_dim * 2 bytes (GQA) or
  // (kv_lora_rank + qk_rope_head_dim) * 2 bytes (MLA).
  Bytes kv_bytes_per_token_per_layer_bf16() const;
  // Values per token of one F or S layer (the above over 2 bytes).
  std::int64_t kv_values_per_token_per_layer() const;
  // The recurrent and conv state of one L layer for one sequence, BF16 (0 without L layers).
  Bytes linear_state_bytes_per_layer_bf16() const;
  // The whole KV of one sequence of `tokens` tokens: F layers all, S layers min(tokens, W),
  // L layers their state.
  Bytes kv_bytes_bf16(std::int64_t tokens) const;
  int layers_of(LayerKind kind) const;
  int moe_layers() const;
  // Attention projections of one layer of its kind (MLA, linear or GQA).
  double attention_params(LayerKind kind) const;
  // Parameters of the attention and FFN projections, averaged over the layers: every expert
  // (linear_params_per_layer), the active ones (router, top-k and shared experts), and those a
  // pass of `tokens` tokens reads (the distinct experts it touches; model_layers.hpp).
  // A dense GQA model has all three equal to the QKV, O, gate, up and down projections.
  double linear_params_per_layer() const;
  double active_linear_params_per_layer() const;
  double read_linear_params_per_layer(double tokens) const;
  // vocab * hidden.
  double lm_head_params() const;
  // Parameters of the projections summed over all layers, by part (WeightFormats), with
  // `routed_experts` routed experts per MoE layer.
  struct PartParams {
    double attention = 0.0;
    double ffn = 0.0;
    double experts = 0.0;
  };
  PartParams part_params(double routed_experts) const;
};

// One line for `lynxsim list`: name, layers, heads/kv heads, params, KV per token.
std::string describe(const ModelSpec& model);

}  // namespace lynxsim
