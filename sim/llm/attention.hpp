#pragma once
// Causal grouped-query attention of a batch of new tokens over the KV cache.
//
// For query head h (kv head g = h / (n_heads / n_kv_heads)) and a new token at position p:
//   s_j = q . k_j / sqrt(head_dim)  for j = 0..p,   a = sum_j softmax(s)_j v_j
// (a sliding-window layer, LlamaConfig::is_local, sums only over j > p - sliding_window)
// where k_j, v_j are the cache's rows of kv head g (the new tokens' own K/V must already be in the
// cache, so a prefill chunk attends to itself causally). The work is split into tasks of one head
// and a block of 64 consecutive queries; each task forms its scores against the keys up to its
// last query's position in one matrix product, masks the causal upper triangle, applies a
// numerically stable softmax (max subtracted) per row and multiplies by V. Memory per task:
// 64 x context floats (2 MB at 8K context). Task results do not depend on the thread count.

#include "sim/llm/kv_cache.hpp"
#include "sim/llm/llama_config.hpp"
#include "sim/llm/model.hpp"
#include "sim/llm/thread_pool.hpp"

namespace lynxsim::llm {

struct AttentionInput {
  const LlamaConfig* config;
  const KvCache* cache;
  int layer;
  int first_position;  // position of q's first row; the cache holds first_position + q.rows()
};

// q: [tokens][n_heads * head_dim] after RoPE; out is resized to the same shape.
void causal_attention(ThreadPool& pool, const AttentionInput& input, const RowMatrix& q,
                      RowMatrix& out);

}  // namespace lynxsim::llm
