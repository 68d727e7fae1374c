#include "sim/llm/llama_config.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace lynxsim::llm {
namespace {

int int_key(const GgufFile& file, const std::string& key) {
  const std::int64_t v = file.value(key).as_int();
  if (v <= 0 || v > std::numeric_limits<int>::max()) {
    throw GgufError("GGUF metadata '" + key + "' = " + std::to_string(v) + " is out of range");
  }
  return static_cast<int>(v);
}

void require(bool ok, const std::string& what) {
  if (!ok) {
    throw std::invalid_argument("invalid Llama configuration: " + what);
  }
}

void read_gemma_keys(const GgufFile& file, LlamaConfig& c) {
  c.head_dim = int_key(file, "gemma3.attention.key_length");
  if (file.has("gemma3.attention.value_length") &&
      int_key(file, "gemma3.attention.value_length") != c.head_dim) {
    throw GgufError("gemma3.attention.value_length must equal key_length");
  }
  c.sliding_window = int_key(file, "gemma3.attention.sliding_window");
  c.swa_pattern = file.has("gemma3.attention.sliding_window_pattern")
                      ? int_key(file, "gemma3.attention.sliding_window_pattern")
                      : 6;
  if (file.has("gemma3.rope.freq_base_swa")) {
    c.rope_theta_local = file.value("gemma3.rope.freq_base_swa").as_float();
  }
  if (file.has("gemma3.rope.scaling.type") || file.has("gemma3.attn_logit_softcapping") ||
      file.has("gemma3.final_logit_softcapping")) {
    throw GgufError("gemma3 RoPE scaling and logit soft-capping are not supported");
  }
}

}  // namespace

LlamaConfig LlamaConfig::from_gguf(const GgufFile& file) {
  const std::string& arch = file.value("general.architecture").as_string();
  if (arch != "llama" && arch != "gemma3") {
    throw GgufError("unsupported architecture '" + arch + "' (llama and gemma3 are implemented)");
  }
  const std::string a = arch + ".";
  LlamaConfig c;
  c.arch = arch == "gemma3" ? Architecture::Gemma3 : Architecture::Llama;
  c.n_layers = int_key(file, a + "block_count");
  c.n_embd = int_key(file, a + "embedding_length");
  c.n_heads = int_key(file, a + "attention.head_count");
  c.n_kv_heads = file.has(a + "attention.head_count_kv") ? int_key(file, a + "attention.head_count_kv")
                                                         : c.n_heads;
  c.n_ff = int_key(file, a + "feed_forward_length");
  c.context_length = int_key(file, a + "context_length");
  if (file.has(a + "rope.freq_base")) {
    c.rope_theta = file.value(a + "rope.freq_base").as_float();
  }
  c.rms_eps = file.value(a + "attention.layer_norm_rms_epsilon").as_float();
  if (c.is_gemma()) {
    read_gemma_keys(file, c);
  } else {
    c.head_dim = c.n_embd / c.n_heads;
    if (file.has("llama.rope.dimension_count") &&
        int_key(file, "llama.rope.dimension_count") != c.head_dim) {
      throw GgufError(
          "partial rotary embeddings (llama.rope.dimension_count != head_dim) are "
          "not supported");
    }
  }
  const GgufTensorInfo& embd = file.tensor("token_embd.weight");
  if (embd.dims.size() != 2 || embd.dims[0] != static_cast<std::uint64_t>(c.n_embd) ||
      embd.dims[1] > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    throw GgufError("token_embd.weight must have shape [n_embd, vocab]");
  }
  c.vocab_size = static_cast<int>(embd.dims[1]);
  try {
    c.validate();
  } catch (const std::invalid_argument& error) {
    throw GgufError(error.what());
  }
  return c;
}

void LlamaConfig::validate() const {
  require(n_layers > 0 && n_embd > 0 && n_heads > 0 && n_kv_heads > 0 && n_ff > 0 &&
              vocab_size > 0 && context_length > 0,
          "sizes must be positive");
  if (arch == Architecture::Llama) {
    require(n_embd % n_heads == 0, "n_embd must be a multiple of n_heads");
    require(head_dim == n_embd / n_heads, "head_dim must be n_embd / n_heads");
  }
  require(head_dim > 0, "head_dim must be positive");
  require(sliding_window >= 0 && swa_pattern >= 1, "sliding window and pattern must be positive");
  require(rope_theta_local > 0.0, "rope_theta_local must be positive");
  require(head_dim % 2 == 0, "head_dim must be even for RoPE");
  require(n_heads % n_kv_heads == 0, "n_heads must be a multiple of n_kv_heads");
  require(rope_theta > 0.0, "rope_theta must be positive");
  require(rms_eps > 0.0, "rms_eps must be positive");
}

}  // namespace lynxsim::llm
