#pragma once
// Hyper-parameters of a decoder read from GGUF metadata: Llama (`llama.*` keys) or Gemma 3
// (`gemma3.*`), chosen by general.architecture.
//
//   n_layers      <arch>.block_count                 decoder blocks
//   n_embd        <arch>.embedding_length            hidden size d
//   n_heads       <arch>.attention.head_count        query heads
//   n_kv_heads    <arch>.attention.head_count_kv     key/value heads (grouped-query attention;
//                                                    n_heads must be a multiple of it)
//   head_dim      llama: n_embd / n_heads (llama.rope.dimension_count must equal it);
//                 gemma3: gemma3.attention.key_length (= value_length; n_heads * head_dim may
//                 differ from n_embd)
//   n_ff          <arch>.feed_forward_length         SwiGLU / GeGLU inner size
//   vocab_size    rows of token_embd.weight
//   context_length <arch>.context_length             longest position the model was trained for
//   rope_theta    <arch>.rope.freq_base              RoPE base (10000 when absent); global layers
//   rms_eps       <arch>.attention.layer_norm_rms_epsilon
// Gemma 3 only:
//   sliding_window      gemma3.attention.sliding_window: a local layer's query at position p sees
//                       keys at p - window < j <= p
//   swa_pattern         every swa_pattern-th layer (l % swa_pattern == swa_pattern - 1) is
//                       global, the others local; gemma3.attention.sliding_window_pattern when
//                       present, else 6 (Gemma 3's fixed 5:1 interleave, as llama.cpp assumes)
//   rope_theta_local    RoPE base of local layers: gemma3.rope.freq_base_swa when present, else
//                       10000 (Gemma 3's rope_local_base_freq)
// SmolLM2-135M: 30 layers, d = 576, 9 heads, 3 KV heads, head_dim 64, n_ff 1536, vocab 49152,
// context 8192, theta 100000, eps 1e-5. Gemma 3 270M: 18 layers, d = 640, 4 heads, 1 KV head,
// head_dim 256, n_ff 2048, vocab 262144, context 32768, theta 1e6 (local 1e4), window 512,
// layers 5, 11, 17 global, eps 1e-6.

#include "sim/llm/gguf_file.hpp"

namespace lynxsim::llm {

enum class Architecture { Llama, Gemma3 };

struct LlamaConfig {
  Architecture arch = Architecture::Llama;
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
  int sliding_window = 0;  // 0: every layer attends to the whole context
  int swa_pattern = 1;
  double rope_theta_local = 10000.0;

  int kv_dim() const { return n_kv_heads * head_dim; }
  int q_dim() const { return n_heads * head_dim; }
  int group_size() const { return n_heads / n_kv_heads; }
  bool is_gemma() const { return arch == Architecture::Gemma3; }
  // True for a sliding-window (local) layer.
  bool is_local(int layer) const {
    return sliding_window > 0 && layer % swa_pattern != swa_pattern - 1;
  }
  // Oldest position a query at `position` in `layer` attends to.
  int first_visible(int layer, int position) const {
    return is_local(layer) && position >= sliding_window ? position - sliding_window + 1 : 0;
  }
  double layer_rope_theta(int layer) const {
    return is_local(layer) ? rope_theta_local : rope_theta;
  }

  // Throws GgufError when the architecture is not llama or gemma3 or a value is missing or
  // inconsistent.
  static LlamaConfig from_gguf(const GgufFile& file);
  // Throws std::invalid_argument naming the first inconsistent field.
  void validate() const;
};

}  // namespace lynxsim::llm
