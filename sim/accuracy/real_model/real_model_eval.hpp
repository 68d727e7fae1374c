#pragma once
// Accuracy of every KV transfer method on a real model (SmolLM2-135M or Gemma 3 270M through
// sim/llm), per context
// length: speculative acceptance exactly as Lynx runs it, teacher-forced agreement with the 16-bit
// KV, perplexity change on a long natural text, and passkey retrieval (definitions in
// real_model_result.hpp and docs/real_model.md).
//
// Per context c (the text's first c tokens are the prompt, the next `continuation_tokens` P tokens
// the perplexity target; c + P must not exceed the text):
//   1. one prefill of the prompt, shared by every method (real_decode_steps.hpp);
//   2. the 16-bit reference (prompt KV rounded to bf16) generates P greedy tokens;
//   3. per distinct reconstruction (bit-identical variants, e.g. every Lynx split's full KV and int8,
//      are run once): one batched teacher-forced pass over the greedy tokens (agreement) and one over
//      the text (perplexity, text agreement);
//   4. per speculative method and sample s < acceptance_samples: the prompt is extended by the first
//      s·acceptance_stride greedy tokens (a longer prompt, prefilled in full precision, one stride
//      after the other) and one draft-and-verify step with k_max drafts records the accepted prefix.
// Passkey runs on its own prompts (real_passkey.hpp), contexts and depths; with passkey_in_text the
// haystack is the text itself.
//
// Cost (2 threads, SmolLM2-135M on a 2-core machine): prefill 100-150 tokens/s, decode 10-25
// tokens/s (`lynxsim bench llm`); a 4K context with the default methods takes about 6 minutes of
// wall time, hence the cache.
// Results do not depend on the thread count.
//
// Cache: as accuracy_run.hpp, JSON in cache_dir/<FNV-1a 64 hex>.json ({"cache_key", "result"}), the
// key listing every input: model file path, size and modification time, the text's FNV-1a hash and
// length, contexts, methods, k_max, sampling counts, passkey settings, seed and
// kRealModelCodeVersion. Written to a temporary file and renamed.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/accuracy/methods/measured_methods.hpp"
#include "sim/accuracy/real_model/real_model_result.hpp"
#include "sim/llm/model.hpp"

namespace lynxsim::accuracy {

inline constexpr int kRealModelCodeVersion = 2;

struct RealModelRequest {
  std::string model_path;  // GGUF; llm::find_model() finds SmolLM2 and Gemma 3
  std::string text_path;   // plain UTF-8 text, e.g. data/texts/kv_essay.txt (its name goes into the result)
  std::string text;        // the contents of text_path (the store layer reads it)
  std::vector<int> contexts = {1024, 4096};
  std::vector<MethodSpec> methods;  // empty = default_methods()
  int k_max = 16;
  int acceptance_samples = 4;
  int acceptance_stride = 32;
  int continuation_tokens = 256;
  std::vector<int> passkey_contexts = {512, 1024, 2048};  // empty = no passkey test
  std::vector<double> passkey_depths = {0.1, 0.5, 0.9};
  int passkey_trials = 1;
  bool passkey_in_text = false;  // the needle in the text itself rather than in synthetic filler
  int threads = 2;
  std::uint64_t seed = 1;

  void validate() const;  // throws std::invalid_argument
};

// Measures on an already loaded model (its file is request.model_path); the store layer's
// run_real_model (sim/store/real_model_cache.hpp) loads the model and text and caches the result.
RealModelResult measure_real_model(const llm::Model& model, const RealModelRequest& request);

// The text's tokens (a BOS when the tokenizer adds one; no special tokens parsed).
std::vector<int> text_tokens(const llm::Model& model, const std::string& text);

}  // namespace lynxsim::accuracy
