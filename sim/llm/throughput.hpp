#pragma once
// Forward-pass throughput of a Model on this machine: prefill and greedy decode tokens per second.
//
// One Session with n_threads threads prefills `prompt` (in the Session's 512-token chunks), then
// decodes `decode_tokens` tokens greedily, each step attending over the whole cache. Reported:
//   prefill tokens/s = prompt tokens / prefill wall time,
//   decode tokens/s  = decoded tokens / decode wall time   (mean step time = its inverse),
// wall times from std::chrono::steady_clock. Decode cost grows with the context (attention reads
// every cached K/V row; at SmolLM2's size the weights dominate up to a few thousand tokens), so a
// figure is meaningful only with its prompt length. Thread counts change speed, never results.

#include <span>

#include "sim/llm/model.hpp"

namespace lynxsim::llm {

struct ThroughputConfig {
  int decode_tokens = 64;
  int n_threads = 2;
};

struct Throughput {
  int prompt_tokens = 0;
  int decoded_tokens = 0;
  double prefill_s = 0.0;
  double decode_s = 0.0;
  int threads = 0;  // threads the session got (fewer than n_threads when the system refused some)
  double prefill_tokens_per_s() const;
  double decode_tokens_per_s() const;
};

// prompt must hold at least one token; decode_tokens must be positive (std::invalid_argument).
Throughput measure_throughput(const Model& model, std::span<const int> prompt, const ThroughputConfig& config);

}  // namespace lynxsim::llm
