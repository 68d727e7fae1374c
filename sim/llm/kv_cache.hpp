#pragma once
// The key/value cache of a Llama decoder, as float arrays a caller can read, replace and copy.
//
// For each layer the cache holds K and V of every processed token. Keys are stored AFTER the rotary
// position embedding (what attention reads and what a serving system ships), values as projected.
// Layout of one layer, K and V alike: [kv_head][token][head_dim], row-major; one head's block is
// contiguous, size() * head_dim floats, and is what keys()/values() return. Within a head, channel
// pairs (2i, 2i+1) are the rotary pairs: GGUF stores Llama's q/k projections permuted so that RoPE
// rotates adjacent channels (Hugging Face's checkpoints rotate channel i with i + head_dim/2; the
// two orders are one fixed permutation of channels apart, so any per-token or per-channel
// quantizer sees the same groups up to that permutation).
//
// The cache is a value type: copying it forks the state (run two decodes from one prefill).
// replace_layer() and transform() overwrite K/V in place, e.g. with a quantized-and-reconstructed
// version; the model then attends to exactly those numbers. Memory: 2 * layers * kv_heads *
// capacity * head_dim floats (SmolLM2-135M: 23 KiB per token).

#include <functional>
#include <span>
#include <vector>

namespace lynxsim::llm {

// One layer's K and V as copies in the cache layout [kv_head][token][head_dim].
struct LayerKv {
  int n_kv_heads = 0;
  int n_tokens = 0;
  int head_dim = 0;
  std::vector<float> keys;
  std::vector<float> values;
};

class KvCache {
public:
  KvCache() = default;
  KvCache(int n_layers, int n_kv_heads, int head_dim);

  int n_layers() const { return n_layers_; }
  int n_kv_heads() const { return n_kv_heads_; }
  int head_dim() const { return head_dim_; }
  int size() const { return size_; }

  std::span<const float> keys(int layer, int kv_head) const;
  std::span<const float> values(int layer, int kv_head) const;
  std::span<float> keys(int layer, int kv_head);
  std::span<float> values(int layer, int kv_head);

  LayerKv layer(int layer) const;
  // `kv` must have this cache's kv_heads, head_dim and size(); throws std::invalid_argument if not.
  void replace_layer(int layer, const LayerKv& kv);
  // Calls fn(layer, kv) for every layer with a copy and writes the result back (shape must stay).
  void transform(const std::function<void(int layer, LayerKv& kv)>& fn);

  // Drops every token at index >= n_tokens.
  void truncate(int n_tokens);
  void clear() { truncate(0); }
  // Makes room for `count` more tokens and returns the index of the first; the new rows are zero
  // until written.
  int extend(int count);

private:
  void check(int layer, int kv_head) const;
  void grow(int capacity);
  std::size_t offset(int kv_head) const;

  int n_layers_ = 0;
  int n_kv_heads_ = 0;
  int head_dim_ = 0;
  int size_ = 0;
  int capacity_ = 0;
  std::vector<std::vector<float>> keys_;
  std::vector<std::vector<float>> values_;
};

// Rounds every stored K and V to the nearest bf16 value (16-bit KV cache).
void round_kv_to_bf16(KvCache& cache);

}  // namespace lynxsim::llm
