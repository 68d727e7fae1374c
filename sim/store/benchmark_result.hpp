#pragma once
// The per-request results of a real serving benchmark, read for `lynxsim replay`.
//
// The file is `vllm bench serve --save-result --save-detailed` JSON (vllm/benchmarks/serve.py,
// main(): the client settings "num_prompts", "request_rate" (a number or "inf"), "burstiness",
// "max_concurrency" (null: none), then benchmark()'s result: "duration" (s), "completed",
// "request_throughput" (completed / duration), and per request, in the order the requests were
// made, "input_lens" (prompt tokens), "output_lens" (tokens generated; 0 for a failed request),
// "ttfts" (s), "itls" (list of s), "latencies" (s, from send to the last token; absent in older
// versions, then TTFT + the sum of the ITLs), "start_times" (perf_counter at send, newer versions)
// and "errors" (empty string on success)). Other keys (labels, metadata, aggregates) are not read.
// A failed request (non-empty error or no output) is left out and counted.
// Two more formats have their own readers: genai-perf's profile_export.json, recognised by its
// "experiments" (genai_perf_export.hpp), and AIPerf's profile_export.jsonl, recognised by its
// extension (aiperf_export.hpp); each may take its settings from the aggregate file the tool writes
// beside it (STEM_genai_perf.json, STEM_aiperf.json).
// Every problem is an InputError naming the file and the JSON pointer (exit code 2).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lynxsim::store {

struct MeasuredRequest {
  int input_tokens = 0;
  int output_tokens = 0;
  double ttft_s = 0.0;
  double e2e_s = 0.0;                // from send to the last token
  std::optional<double> sent_s;      // from the first send (start_times), when recorded
};

struct BenchmarkResult {
  std::string tool;                  // "vllm bench serve", "genai-perf", "AIPerf"
  std::vector<MeasuredRequest> requests;  // successful ones, in the file's order
  std::size_t failed = 0;
  std::optional<int> max_concurrency;
  std::optional<double> request_rate;     // none: "inf"
  double burstiness = 1.0;
  double duration_s = 0.0;
  double request_throughput = 0.0;        // requests per second, as the tool measured it
  std::string client_source;              // where the client settings came from, for the title
};

// The aggregate file beside a per-request export: its path, and its JSON (null when there is none).
struct ResultSettings {
  nlohmann::json value;
  std::string document;
};

// vLLM's JSON, or genai-perf's when it has "experiments".
BenchmarkResult benchmark_result_from_json(const nlohmann::json& value, const std::string& document,
                                           const ResultSettings& settings = {});
// By content and extension (.jsonl: AIPerf), with the settings file beside it when there is one.
BenchmarkResult read_benchmark_result(const std::filesystem::path& path);

}  // namespace lynxsim::store
