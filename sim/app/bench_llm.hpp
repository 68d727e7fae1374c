#pragma once
// `lynxsim bench llm`: tokens per second of the real-model forward pass (SmolLM2-135M) here.
//
// Loads the fetched GGUF (scripts/fetch_model.sh; an error says how to get it when it is missing),
// takes the first `context` tokens of the bundled essay (data/texts/kv_essay.txt) as the prompt,
// prefills it and decodes `decode` tokens greedily on `threads` threads (llm/throughput.hpp). Prints
// the load time, prefill tokens/s, decode tokens/s and the mean decode step in ms. Wall-clock
// figures: run it on an otherwise idle machine.

#include <optional>

#include "sim/app/data_paths.hpp"

namespace lynxsim::app {

struct LlmBenchOptions {
  int context = 1024;
  int decode = 64;
  int threads = 2;
};

int cmd_bench_llm(const DataPaths& data, const LlmBenchOptions& options);

}  // namespace lynxsim::app
