#pragma once
// One inference stream over a Model: the KV cache, the position, and the forward pass.
//
// Per block l (pre-norm Llama):  h = x + Wo attn(RoPE(Wq n1(x)), RoPE(Wk n1(x)), Wv n1(x))
//                                x' = h + Wd (silu(Wg n2(h)) * Wu n2(h))
// with n1, n2 RMSNorm; logits = W_out norm(x_L). Gemma 3 (LlamaConfig::is_gemma) differs in:
// x_0 = sqrt(d) E[token]; q and k are RMS-normed per head (QK-norm) before RoPE, which rotates
// halves (i, i + head_dim/2) with base rope_theta_local on sliding-window layers; each block adds
// post-norms, h = x + n3(Wo attn(...)), x' = h + n4(Wd (gelu(Wg n2(h)) * Wu n2(h))), gelu the
// tanh approximation; local layers attend to the last sliding_window positions only. A call processes a batch of new tokens at once
// (prefill: matrix-matrix products over all of them; decode: one token), appends their K/V to the
// cache, then attends causally over everything in the cache. The cache is public: after prefill a
// caller may copy it (fork the Session), read it, or overwrite it with a quantized-and-
// reconstructed version; later tokens then attend to exactly those numbers. To measure a KV method
// as a decode node sees it, prefill all prompt tokens but the last, replace the cache, then
// decode_step(last prompt token): its logits give the first generated token.
//
// Options: n_threads (results are bit-identical for every thread count) and kv_precision (Bf16
// rounds every K/V row to bf16 as it is written: a 16-bit KV cache). Copying a Session copies the
// cache and the last logits and starts its own threads. A Session is not safe to use from two
// threads at once; different Sessions over one Model are.

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "sim/llm/kv_cache.hpp"
#include "sim/llm/model.hpp"
#include "sim/llm/thread_pool.hpp"

namespace lynxsim::llm {

enum class KvPrecision { F32, Bf16 };

struct SessionOptions {
  int n_threads = 1;
  KvPrecision kv_precision = KvPrecision::F32;
};

// Teacher-forced scores of a token sequence: entry i is about tokens[i] given everything before.
struct TokenScores {
  std::vector<int> predicted;    // argmax of the distribution that predicts tokens[i]; -1 if none
  std::vector<double> log_prob;  // natural log p(tokens[i] | ...); NaN if nothing preceded it
};

class Session {
public:
  explicit Session(const Model& model, SessionOptions options = {});
  Session(const Session& other);
  Session& operator=(const Session& other);
  Session(Session&&) noexcept = default;
  Session& operator=(Session&&) noexcept = default;
  ~Session() = default;

  const Model& model() const { return *model_; }
  const SessionOptions& options() const { return options_; }
  // Threads the session computes on: options().n_threads, or fewer when the system refused some.
  int threads() const { return pool_->size(); }
  int position() const { return cache_.size(); }

  // Appends the tokens; returns (and keeps) the logits after the last one. Prompts longer than
  // 512 tokens run in 512-token chunks.
  const std::vector<float>& prefill(std::span<const int> tokens);
  const std::vector<float>& decode_step(int token);
  // Appends the tokens and returns the logits after each one, [tokens][vocab] (4 * vocab bytes
  // per token: use score() for long sequences).
  RowMatrix forward(std::span<const int> tokens);
  // Appends the tokens and scores each against the distribution before it (the first one against
  // last_logits(), when the session already holds tokens).
  TokenScores score(std::span<const int> tokens);
  // Greedy continuation from last_logits(): appends and returns up to n_tokens tokens, stopping
  // after stop_token when given.
  std::vector<int> generate_greedy(int n_tokens, std::optional<int> stop_token = std::nullopt);

  const std::vector<float>& last_logits() const { return last_logits_; }
  // Queries of the last processed token in `layer`, after RoPE: [n_heads][head_dim].
  std::span<const float> last_queries(int layer) const;

  KvCache& kv() { return cache_; }
  const KvCache& kv() const { return cache_; }
  // Forgets every token (the cache keeps its dimensions).
  void reset();
  // Drops the tokens at positions >= position (e.g. rejected draft tokens); last_logits() and
  // last_queries() are cleared, so the next call must process at least one token.
  void rewind(int position);

private:
  void run_layers(std::span<const int> tokens, RowMatrix& x);
  void run_layer(int layer, int first_position, RowMatrix& x);
  void store_kv(int layer, int first_position, const RowMatrix& k, const RowMatrix& v);
  RowMatrix logits_of(const RowMatrix& hidden_rows);

  const Model* model_;
  SessionOptions options_;
  std::unique_ptr<ThreadPool> pool_;
  KvCache cache_;
  std::vector<float> last_logits_;
  std::vector<std::vector<float>> last_queries_;
};

int argmax(std::span<const float> logits);
// exp(-mean log_prob) over the entries that have one; throws if none has.
double perplexity(const TokenScores& scores);

}  // namespace lynxsim::llm
