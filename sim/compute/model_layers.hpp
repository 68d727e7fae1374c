#pragma once
// The parts of a model card beyond a dense GQA transformer: the attention kind of each layer and a
// mixture-of-experts FFN (docs/models.md).
//
// Attention. Every layer is one of
//   F  full attention: GQA/MHA (per-head K and V) or, with an MLA spec, multi-head latent attention
//   S  sliding window: as F but a query sees only the last W tokens, so the layer keeps at most W
//   L  linear attention (gated DeltaNet): a fixed state per sequence, whatever the context length
// A card's layer_pattern (letters F, S, L) repeats over the layers; no pattern means all F.
//
// KV values per token and layer (BF16, 2 bytes each):
//   GQA/MHA    2 * kv_heads * head_dim                   (K and V of every KV head)
//   MLA        kv_lora_rank + qk_rope_head_dim           (one latent and its RoPE key, shared by
//                                                          all heads; DeepSeek-V3: 512 + 64 = 576)
// and of a request of C tokens:  F layers C tokens, S layers min(C, W) tokens, L layers none but
// their state of  v_heads * key_head_dim * value_head_dim  (the recurrent state)
//   + (2 * key_heads * key_head_dim + v_heads * value_head_dim) * (conv_kernel - 1)  (conv state)
// values, independent of C.
//
// Parameters per layer (norms, biases and gates below 0.1% ignored):
//   GQA attention  hidden * head_dim * (2 * heads + 2 * kv_heads)
//   MLA attention  hidden * q_lora_rank + q_lora_rank * heads * (nope + rope)   (query down/up;
//                  hidden * heads * (nope + rope) without a q_lora_rank)
//                  + hidden * (kv_lora_rank + rope) + kv_lora_rank * heads * (nope + v_head_dim)
//                  + heads * v_head_dim * hidden
//   linear attn    hidden * (2 * key_heads * key_head_dim + 2 * v_heads * value_head_dim
//                  + 2 * v_heads) + v_heads * value_head_dim * hidden
//   dense FFN      3 * hidden * ffn_dim
//   MoE FFN        hidden * experts (router) + (experts + shared) * 3 * hidden * expert_ffn_dim
// A MoE layer computes with its router, top_k routed and its shared experts (the active
// parameters); the first first_dense_layers layers have a dense FFN of ffn_dim.
//
// Weights read by one forward pass of B tokens: the weights of every expert that at least one
// token is routed to. With top-k routing spread evenly over E experts, an expert is missed by one
// token with probability (1 - k/E), so the expected number of distinct experts a batch touches is
//   E_hit(B) = E * (1 - (1 - k/E)^B)
// per MoE layer (independent tokens; real routers are skewed, which touches fewer experts).

#include <optional>
#include <string>

namespace lynxsim {

enum class LayerKind { full, sliding, linear };

struct MlaSpec {
  int kv_lora_rank = 0;
  int qk_rope_head_dim = 0;
  int qk_nope_head_dim = 0;
  int v_head_dim = 0;
  int q_lora_rank = 0;  // 0: the query is projected directly from the hidden state
};

struct LinearAttentionSpec {
  int key_heads = 0;
  int value_heads = 0;
  int key_head_dim = 0;
  int value_head_dim = 0;
  int conv_kernel = 0;
  double state_values() const;  // recurrent plus conv state of one sequence in one layer
  double params(int hidden) const;
};

struct MoeSpec {
  int experts = 0;
  int top_k = 0;
  int shared_experts = 0;
  int expert_ffn_dim = 0;
  int first_dense_layers = 0;
  // E * (1 - (1 - k/E)^tokens); 0 for no tokens.
  double distinct_experts(double tokens) const;
};

struct AttentionLayout {
  std::optional<MlaSpec> mla;
  std::optional<LinearAttentionSpec> linear;
  int sliding_window = 0;     // W; 0 without sliding-window layers
  std::string layer_pattern;  // letters F, S, L repeated over the layers; empty: all F
};

const char* to_string(LayerKind kind);

// The kind of layer `layer` (0-based) under `pattern`.
LayerKind layer_kind(const std::string& pattern, int layer);

}  // namespace lynxsim
