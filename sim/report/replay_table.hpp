#pragma once
// `lynxsim replay`: a real benchmark's latencies beside the simulated ones, per method.
//
// Both sides are summarized the same way, as vLLM's calculate_metrics does
// (vllm/benchmarks/serve.py): TTFT and E2E per request; TPOT = (E2E - TTFT) / (output - 1) over
// the requests with more than one output token; mean and the 50th, 90th and 99th percentiles with
// numpy's linear interpolation (statistics.hpp); request throughput = requests / the time from the
// client's start to the last response (the tool's own figure on the measured side). The simulated
// TTFT is the one the client sees (RequestMetrics::ttft). Relative error = simulated / measured - 1.

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/statistics.hpp"
#include "sim/serving/request_metrics.hpp"

namespace lynxsim::report {

struct LatencySample {
  std::vector<double> ttft_s;
  std::vector<double> tpot_s;
  std::vector<double> e2e_s;
  double requests_per_s = 0.0;

  void add(double ttft, double e2e, int output_tokens);
};

LatencySample simulated_sample(const serving::MethodResult& result);

struct ReplayComparison {
  std::string title;  // what was replayed on what, printed above the table
  LatencySample measured;
  std::vector<std::pair<std::string, LatencySample>> simulated;  // per method, in run order
};

std::string format_replay(const ReplayComparison& c);
// {"title", "metrics": {name: {"measured": x, "simulated": {method: {"value", "relative_error"}}}}}
// with names ttft_mean_s, ttft_p50_s, ttft_p90_s, ttft_p99_s, tpot_mean_s, tpot_p50_s,
// tpot_p99_s, e2e_mean_s, e2e_p50_s, e2e_p99_s, requests_per_s; non-finite numbers become null.
nlohmann::json replay_json(const ReplayComparison& c);

}  // namespace lynxsim::report
