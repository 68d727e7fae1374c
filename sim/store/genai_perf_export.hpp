#pragma once
// genai-perf's per-request export, profile_export.json, read for `lynxsim replay`.
//
// The file is Perf Analyzer's (genai-perf docs/files.md: "the timestamps for each event in the
// lifecycle of each request"): {"service_kind", "endpoint", "experiments": [{"experiment": {"mode":
// "concurrency" | "request_rate", "value"}, "requests": [{"timestamp" (ns, at send),
// "request_inputs" ({"payload": the OpenAI request body as text} for service_kind "openai", the
// request's inputs as an object for "triton"), "response_timestamps" (ns), "response_outputs"
// ([{"response": server-sent events as text}] for openai, [{"text_output"}] for triton)}]}]}.
// Measured metrics as genai-perf computes them (genai_perf/profile_data_parser/
// llm_profile_data_parser.py): responses without text (an openai "[DONE]", an empty delta) are
// dropped first and a request left with none is skipped (here: counted as failed, not replayed);
// TTFT = first response - timestamp; request latency = last response - timestamp; ITL = (latency -
// TTFT) / (output tokens - 1), replay_table.hpp's TPOT; request throughput = every request of the
// experiment / (last response - first send).
//
// Token counts are not in the file: genai-perf counts them by tokenizing the prompt text and the
// concatenated response text. A length is read only where the file makes it exact:
//   - input: a completions "prompt" given as token ids (an array of integers); else, when the
//     settings beside the file (STEM_genai_perf.json, genai-perf's aggregate export, its
//     "input_config") say synthetic_input_tokens_stddev 0 and no input_file, every prompt is a
//     synthetic one of synthetic_input_tokens_mean tokens (the length genai-perf asked for; its own
//     re-tokenized count can differ by a few tokens, and a chat template is not counted);
//   - output: "max_tokens" (or "max_completion_tokens") when the request also forces it, with
//     "ignore_eos": true or "min_tokens" (TensorRT-LLM: "min_length") equal to it; a request with
//     more content chunks than that is malformed. Chunks are not counted as tokens: no engine
//     documents one token per streamed chunk (speculative decoding sends several, a detokenizer
//     may hold text back).
// Otherwise the file is refused at the first such request's JSON pointer, saying what is missing
// and pointing to AIPerf's profile_export.jsonl (aiperf_export.hpp), which records token counts.
// The client: mode "concurrency" is the closed loop at that concurrency, all requests ready at
// once; any other mode ("request_rate": Perf Analyzer's constant or Poisson schedule, its draws
// not recorded) is replayed at the recorded send times. One experiment per file, as genai-perf
// writes it for one profile run.

#include <string>

#include <nlohmann/json.hpp>

#include "sim/store/benchmark_result.hpp"

namespace lynxsim::store {

BenchmarkResult genai_perf_result_from_json(const nlohmann::json& value, const std::string& document,
                                            const ResultSettings& settings);

}  // namespace lynxsim::store
