#pragma once
// Hyper-parameters of a Llama-architecture decoder, read from GGUF metadata (`llama.*` keys).
//
//   n_layers      llama.block_count                 decoder blocks
//   n_embd        llama.embedding_length            hidden size d
//   n_heads       llama.attention.head_count        query heads
//   n_kv_heads    llama.attention.head_count_kv     key/value heads (grouped-query attention;
//                                                   n_heads must be a multiple of it)
//   head_dim      n_embd / n_heads                  (llama.rope.dimension_count must equal it)
//   n_ff          llama.feed_forward_length         SwiGLU inner size
//   vocab_size    rows of token_embd.weight
//   context_length llama.context_length             longest position the model was trained for
//   rope_theta    llama.rope.freq_base              RoPE base (10000 when absent)
//   rms_eps       llama.attention.layer_norm_rms_epsilon
// SmolLM2-135M: 30 layers, d = 576, 9 heads, 3 KV heads, head_dim 64, n_ff 1536, vocab 49152,
// context 8192, theta 100000, eps 1e-5.

#include "sim/llm/gguf_file.hpp"

namespace lynxsim::llm {

struct LlamaConfig {
  int n_layers = 0;
  int n_embd = 0;
  int n_heads = 0;
  int n_kv_heads = 0;
  int head_dim = 0;
  int n_ff = 0;
  int vocab_size = 0;
  int context_length = 0;
  double rope_theta = 10000.0;
  double rms_eps = 1e-5;

  int kv_dim() const { return n_kv_heads * head_dim; }
  int group_size() const { return n_heads / n_kv_heads; }

  // Throws GgufError when the architecture is not llama or a value is missing or inconsistent.
  static LlamaConfig from_gguf(const GgufFile& file);
  // Throws std::invalid_argument naming the first inconsistent field.
  void validate() const;
};

}  // namespace lynxsim::llm
