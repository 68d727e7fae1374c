#pragma once
// Every measurement on one sampled (layer, KV head) block, for every method variant.
//
// The block's first num_attention_queries queries are attention probes (each at its own position,
// attending causally); the remaining ones are needle probe bases (at the last position). For each
// variant the block is reconstructed once (KIVI again for each needle context, since its bf16 window
// follows the context's end), then:
//   - key/value error energies over the whole block;
//   - per attention query: logits over its causal prefix with the reconstructed keys, KL and top-k
//     recall against the source logits, the attention output with the reconstructed values, its
//     relative error and its next-token proxy token (kept per query so that anchor and full variants
//     can be paired into an acceptance probability);
//   - per needle probe, context and depth: whether the planted needle still wins.
// An MLA latent block (latent_rope_dim > 0, synthetic_latent.hpp) is one tensor: the latent row is
// reconstructed once as what is sent (the value convention of the codecs, groups along the row),
// the keys are that reconstruction and the values the same with the RoPE part zeroed.
// Cost per variant: O(T·d) reconstruction + O(Q·T·d) attention + O(P·Σ n·d) needle scoring.

#include <cstdint>
#include <vector>

#include "sim/accuracy/kv/head_kv.hpp"
#include "sim/accuracy/methods/method_codec.hpp"
#include "sim/accuracy/metrics/next_token_proxy.hpp"
#include "sim/accuracy/metrics/precision_metrics.hpp"

namespace lynxsim::accuracy {

struct MethodVariant {
  MethodSpec method;
  bool anchor_only = false;
};

struct VariantTally {
  ErrorAccumulator key;
  ErrorAccumulator value;
  double kl_sum = 0.0;
  double recall_sum = 0.0;
  double output_error_sum = 0.0;
  int queries = 0;
  int agreements = 0;
  std::vector<int> tokens;  // proxy token per attention query, in sampling order
  std::vector<int> needle_found;   // per needle context
  std::vector<int> needle_trials;  // per needle context

  void merge(const VariantTally& other);
};

struct HeadMeasureSettings {
  int num_attention_queries = 0;
  int top_k = 32;
  std::vector<int> needle_contexts;
  std::vector<double> needle_depths;
  double needle_margin = 5.0;
  int num_layers = 1;
  std::uint64_t seed = 0;
  int latent_rope_dim = 0;  // > 0: the block is an MLA latent
};

// `block` is modified temporarily (needles) and restored before returning.
std::vector<VariantTally> measure_head(HeadKv& block, const std::vector<MethodVariant>& variants,
                                       const HeadMeasureSettings& settings, const NextTokenProxy& proxy);

}  // namespace lynxsim::accuracy
