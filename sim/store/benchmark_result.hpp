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
// genai-perf's profile_export.json is recognised by its "experiments" and refused: it records each
// prompt as text (request_inputs.payload) and each response as chunks, not token counts, and the
// lengths it reports come from a tokenizer lynxsim does not have.
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
  std::string tool;                  // "vllm bench serve"
  std::vector<MeasuredRequest> requests;  // successful ones, in the file's order
  std::size_t failed = 0;
  std::optional<int> max_concurrency;
  std::optional<double> request_rate;     // none: "inf"
  double burstiness = 1.0;
  double duration_s = 0.0;
  double request_throughput = 0.0;        // requests per second, as the tool measured it
};

BenchmarkResult benchmark_result_from_json(const nlohmann::json& value, const std::string& document);
BenchmarkResult read_benchmark_result(const std::filesystem::path& path);

}  // namespace lynxsim::store
