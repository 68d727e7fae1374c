#pragma once
// Passkey retrieval (Mohtashami and Jaggi's test, 2023) on the real model.
//
// Prompt: an instruction ("There is an important info hidden inside a lot of irrelevant text. Find
// it and memorize it. I will quiz you about the important information there."), then repetitions of
// a fixed filler ("The grass is green. The sky is blue. The sun is yellow. Here we go. There and
// back again."), with the needle "The pass key is N. Remember it. N is the pass key." inserted after
// round(depth·R) of the R filler repetitions, then the question "What is the pass key? The pass key
// is". N is a 5-digit number drawn from (seed, context, trial). R is the largest count for which
// the whole prompt has at most `context` tokens, so the prompt is up to one filler (about 25
// tokens) shorter than the target. The trial succeeds when the greedy answer's first
// answer_tokens tokens, decoded, contain N.
//
// In-text variant (PasskeySettings::haystack non-empty): the filler is the first tokens of a real
// text instead: BOS (when the tokenizer adds one), the instruction, the text's tokens with the
// needle's tokens inserted after round(depth·B) of the B text tokens, then the question; B is
// chosen so the prompt has exactly `context` tokens. A BOS is likewise prepended to the filler
// prompt for tokenizers that add one (Gemma).
//
// One prompt is prefilled once and decoded under every variant (decode_session), so variants differ
// only by the reconstructed prompt KV.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/accuracy/methods/llm_kv_methods.hpp"
#include "sim/llm/model.hpp"

namespace lynxsim::accuracy {

struct PasskeyPrompt {
  std::vector<int> tokens;
  std::string passkey;
};

PasskeyPrompt make_passkey_prompt(const llm::Tokenizer& tokenizer, int context, double depth, std::uint64_t seed,
                                  int trial);

// haystack: the text's tokens (a leading BOS is skipped).
PasskeyPrompt make_text_passkey_prompt(const llm::Tokenizer& tokenizer, const std::vector<int>& haystack, int context,
                                       double depth, std::uint64_t seed, int trial);

struct PasskeySettings {
  std::vector<int> contexts = {512, 1024, 2048};
  std::vector<double> depths = {0.1, 0.5, 0.9};
  int trials = 1;
  int answer_tokens = 8;
  int threads = 2;
  std::uint64_t seed = 1;
  std::vector<int> haystack;  // empty: the synthetic filler
};

// found[v][point] (1 or 0 summed over trials) for every variant, points ordered by context then depth.
std::vector<std::vector<int>> run_passkey(const llm::Model& model, const std::vector<KvVariant>& variants,
                                          const PasskeySettings& settings);

}  // namespace lynxsim::accuracy
