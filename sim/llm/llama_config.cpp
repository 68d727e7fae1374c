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

}  // namespace

LlamaConfig LlamaConfig::from_gguf(const GgufFile& file) {
  const std::string& arch = file.value("general.architecture").as_string();
  if (arch != "llama") {
    throw GgufError("unsupported architecture '" + arch + "' (only llama is implemented)");
  }
  LlamaConfig c;
  c.n_layers = int_key(file, "llama.block_count");
  c.n_embd = int_key(file, "llama.embedding_length");
  c.n_heads = int_key(file, "llama.attention.head_count");
  c.n_kv_heads = file.has("llama.attention.head_count_kv")
                     ? int_key(file, "llama.attention.head_count_kv")
                     : c.n_heads;
  c.n_ff = int_key(file, "llama.feed_forward_length");
  c.context_length = int_key(file, "llama.context_length");
  if (file.has("llama.rope.freq_base")) {
    c.rope_theta = file.value("llama.rope.freq_base").as_float();
  }
  c.rms_eps = file.value("llama.attention.layer_norm_rms_epsilon").as_float();
  c.head_dim = c.n_embd / c.n_heads;
  if (file.has("llama.rope.dimension_count") &&
      int_key(file, "llama.rope.dimension_count") != c.head_dim) {
    throw GgufError(
        "partial rotary embeddings (llama.rope.dimension_count != head_dim) are "
        "not supported");
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
  require(n_embd % n_heads == 0, "n_embd must be a multiple of n_heads");
  require(head_dim == n_embd / n_heads, "head_dim must be n_embd / n_heads");
  require(head_dim % 2 == 0, "head_dim must be even for RoPE");
  require(n_heads % n_kv_heads == 0, "n_heads must be a multiple of n_kv_heads");
  require(rope_theta > 0.0, "rope_theta must be positive");
  require(rms_eps > 0.0, "rms_eps must be positive");
}

}  // namespace lynxsim::llm
