#pragma once
// A needle-retrieval task on the KV of one head: a key planted among the context and a query that
// should find it; a trial succeeds when the planted key gets the largest logit of all ordinary
// tokens (token 0, the attention sink, carries no content and is excluded).
//
// Probe: a direction w (random unit vector over the "content" channels, those whose key variance is
// at most the median, so outlier channels do not carry it) and a needle query q_n = q + h·w built
// from a sampled query q, with h chosen so that the w part alone spreads the logits as much as q
// does (the needle lives where quantization noise of the ordinary channels matters). One probe serves
// every context and depth: the query vector is kept, only the context it sees changes (relative-
// position effects of RoPE on the needle are ignored).
// Target: T = mean + margin·std of the probe's logits over the whole block [1, T_max − 1].
// Case (context n, depth f): the needle sits at p = 1 + floor(f·(n − 2)); its key becomes
// k_p + g·w with g chosen so that its logit on the source (16-bit) keys equals T. The target does not
// depend on n, and the distractors of a shorter context are (but for the needle's own slot) a subset
// of those of a longer one, so accuracy can only fall as the context grows: the longer the context,
// the more likely some distractor exceeds the target, as in real long-context retrieval.
// A method then re-quantizes the group rows around p with the needle in place (method_codec.hpp) and
// the trial asks whether p still wins on the reconstructed keys.

#include <span>
#include <vector>

#include "sim/accuracy/accuracy_rng.hpp"
#include "sim/accuracy/kv/head_kv.hpp"
#include "sim/accuracy/methods/method_codec.hpp"

namespace lynxsim::accuracy {

struct NeedleProbe {
  std::vector<float> query;
  std::vector<float> direction;
};

struct NeedleCase {
  int context = 0;
  int position = 0;
  double gain = 0.0;
};

NeedleProbe make_needle_probe(const HeadKv& block, std::span<const float> base_query, AccuracyRng& rng);

// The cases of one probe for every context (each <= the logits' size) and depth in [0, 1];
// source_logits are q_n·k_t/sqrt(d) over every source key of the block.
std::vector<NeedleCase> plan_needle_cases(std::span<const float> source_logits, const NeedleProbe& probe,
                                          const std::vector<int>& contexts, const std::vector<double>& depths,
                                          double margin);

// Source keys of one head that a needle may be planted in temporarily (restored after each case).
struct NeedleKeys {
  std::vector<float>& keys;  // [tokens][head_dim]
  int tokens = 0;
  int head_dim = 0;
};

// Number of `cases` (all with the same context n) whose needle wins on the method's keys;
// reconstructed = the method's keys (without needle) for a context of n tokens, at least n rows.
int count_needles_found(const MethodSpec& method, const CodecTarget& target, NeedleKeys source,
                        std::span<const float> reconstructed, const NeedleProbe& probe,
                        std::span<const NeedleCase> cases);

}  // namespace lynxsim::accuracy
