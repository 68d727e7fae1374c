#pragma once
// The result of the real-model measurement (real_model_eval.hpp): per context length, per method
// variant, what SmolLM2-135M does with the reconstructed prompt KV. Definitions (docs/real_model.md):
//   agreement            share of the P continuation positions where the variant's argmax equals the
//                        16-bit reference's, both teacher-forced on the reference's greedy tokens;
//   text_agreement       the same, both teacher-forced on the text's own continuation;
//   perplexity           exp(−mean log p) of the text's next P tokens after the prompt;
//   perplexity_delta     perplexity − the 16-bit reference's;
//   acceptance           speculative methods: for each sampled position, the accepted prefix length
//                        L in 0..k_max of k_max greedy anchor drafts verified by the full KV; with k
//                        drafts the accepted prefix is min(L, k) (greedy drafts of k are the first k
//                        of k_max, and verification of a draft sees only the drafts before it);
//   passkey              retrieval trials per (context, depth).
// Per-token acceptance is the maximum-likelihood rate of a geometric acceptance truncated at k_max:
//   alpha = Σ L_s / Σ (L_s + [L_s < k_max]).

#include <cstdint>
#include <string>
#include <vector>

namespace lynxsim::accuracy {

struct RealAcceptance {
  std::string method;
  int k_max = 16;
  std::vector<int> positions;         // continuation offset of each sample
  std::vector<int> accepted_lengths;  // L per sample, 0..k_max

  int samples() const { return static_cast<int>(accepted_lengths.size()); }
  double per_token() const;
  // Counts of accepted prefix a = 0..k with k drafts (k in 1..k_max).
  std::vector<int> histogram(int k) const;
  double mean_accepted(int k) const;
};

struct PasskeyPoint {
  int context = 0;  // target context tokens
  double depth = 0.0;
  int trials = 0;
  int found = 0;
  double accuracy() const { return trials > 0 ? static_cast<double>(found) / trials : 0.0; }
};

struct RealVariantRow {
  std::string method;
  std::string variant;  // "full" or "anchor"
  double bits_per_element = 0.0;
  int positions = 0;
  int agreements = 0;
  int text_agreements = 0;
  double perplexity = 0.0;
  double perplexity_delta = 0.0;

  std::string label() const;
  double agreement() const { return positions > 0 ? static_cast<double>(agreements) / positions : 0.0; }
  double text_agreement() const { return positions > 0 ? static_cast<double>(text_agreements) / positions : 0.0; }
};

struct RealContextResult {
  int context = 0;
  int continuation_tokens = 0;
  double reference_perplexity = 0.0;
  std::vector<RealVariantRow> rows;
  std::vector<RealAcceptance> acceptance;

  // Throw std::out_of_range when absent.
  const RealVariantRow& row(const std::string& method, const std::string& variant = "full") const;
  const RealAcceptance& acceptance_of(const std::string& method) const;
};

struct RealPasskeyRow {
  std::string method;
  std::string variant;
  std::vector<PasskeyPoint> points;  // by context, then depth
  std::string label() const;
  double accuracy() const;  // over every point
};

struct RealModelResult {
  int schema_version = 1;
  std::string model;  // file name of the GGUF
  std::string text;   // file name of the text
  int text_tokens = 0;
  std::uint64_t seed = 0;
  std::vector<RealContextResult> contexts;
  std::vector<RealPasskeyRow> passkey;
  bool from_cache = false;  // set by run_real_model, not stored

  const RealContextResult& at_context(int context) const;  // throws std::out_of_range
};

}  // namespace lynxsim::accuracy
