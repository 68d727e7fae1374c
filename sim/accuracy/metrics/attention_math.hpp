#pragma once
// Single-query attention over one KV head and the distances between two attention results.
//
// For a query q and keys k_0..k_{n−1} (the causal prefix it sees):
//   logits  s_t = q·k_t / sqrt(d),   p = softmax(s),   output o = Σ_t p_t v_t.
// Comparisons of a reference (16-bit or source) result with a reconstructed one:
//   KL(p ‖ p̂) = Σ p_t (log p_t − log p̂_t), computed from the logits as
//               Σ p_t (s_t − ŝ_t) − lse(s) + lse(ŝ) (nats, >= 0, 0 iff equal distributions);
//   top-k recall = |top_k(p) ∩ top_k(p̂)| / k (k capped at n; ties broken by position);
//   relative error ‖o − ô‖ / ‖o‖.
// Dot products accumulate in float32 (as attention kernels do); the output sums float32 partial
// sums of 256 tokens into double, softmax and KL work in double.

#include <span>
#include <vector>

namespace lynxsim::accuracy {

// s_t for keys rows [0, count) of a [*][head_dim] array.
void attention_logits(const float* keys, int head_dim, int count, const float* query, std::vector<float>& logits);

double log_sum_exp(std::span<const float> logits);
std::vector<double> softmax(std::span<const float> logits);
std::vector<double> attention_output(const float* values, int head_dim, std::span<const double> probabilities);

double kl_divergence_from_logits(std::span<const float> reference, std::span<const float> approx);
double topk_recall(std::span<const float> reference, std::span<const float> approx, int k);
double relative_error(std::span<const double> reference, std::span<const double> approx);

// Index of the largest element in [begin, end) (the first on ties).
int argmax(std::span<const float> values, int begin, int end);

}  // namespace lynxsim::accuracy
