#pragma once
// The steps of a real-model measurement, as a disaggregated deployment runs them.
//
// The prefill node processes the prompt; prefill_prompt() keeps its state with every prompt token but
// the last in the cache (float32 K/V) and remembers the last token. decode_session() is the decode
// node: a copy of that state whose prompt K/V are replaced by the variant's reconstruction
// (llm_kv_methods.hpp); feeding it the last prompt token yields the first generated token, and every
// token it processes afterwards gets K/V computed by the model in full precision.
//
//   reference_greedy     the 16-bit (bf16 KV) run's greedy continuation of n tokens;
//   forced_predictions   teacher forcing: the session is fed [last, c_0 .. c_{n-1}]; entry i is its
//                        argmax after c_{i-1} (after `last` for i = 0) and the natural log of the
//                        probability it gave c_i;
//   accepted_prefix      Lynx's speculative step: k_max greedy drafts from the anchor KV, then one
//                        teacher-forced pass of the full KV over [last, d_1 .. d_{k_max−1}]; the result
//                        is the number of leading drafts the full KV predicts itself (0..k_max).
// Cost: a decode session copies the cache (23 KiB per token for SmolLM2-135M) and reconstructs it,
// O(tokens·layers·kv_dim); forced passes run batched; drafting runs k_max sequential decode steps.

#include <span>
#include <vector>

#include "sim/accuracy/methods/llm_kv_methods.hpp"
#include "sim/llm/session.hpp"

namespace lynxsim::accuracy {

struct PrefilledPrompt {
  llm::Session session;
  int last_token = -1;
};

// prompt must hold at least 2 tokens.
PrefilledPrompt prefill_prompt(const llm::Model& model, std::span<const int> prompt, int threads);
// Appends `tokens` to the prompt (the new last token is tokens.back()), computed in full precision.
void extend_prompt(PrefilledPrompt& prompt, std::span<const int> tokens);

llm::Session decode_session(const PrefilledPrompt& prompt, const KvVariant& variant);
std::vector<int> reference_greedy(const PrefilledPrompt& prompt, int tokens);

struct ForcedPredictions {
  std::vector<int> predicted;
  std::vector<double> log_prob;
};
ForcedPredictions forced_predictions(llm::Session& session, int last_token, std::span<const int> continuation);

int count_equal(const std::vector<int>& a, const std::vector<int>& b);
double perplexity_of(const std::vector<double>& log_prob);

int accepted_prefix(const PrefilledPrompt& prompt, const MethodSpec& method, int k_max);

}  // namespace lynxsim::accuracy
