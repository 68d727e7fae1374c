#pragma once
// Hand-made results of three methods for the report tests: every request arrives at 0, so TTFT_spec
// is first_token_at. bf16: 400 ms and 600 ms (mean 500 ms); int8: 300 ms twice; lynx: 200 ms twice
// (speculative, TTFT_commit 350 ms). Speedups of TTFT_spec: lynx vs int8 1.5, vs bf16 2.5; of
// TTFT_commit: lynx vs int8 300/350 = 0.857, vs bf16 500/350 = 1.4286; int8 vs bf16 1.6667 in both.
// The client sees committed tokens (the default stream), so its TTFT is TTFT_commit;
// streaming_drafts() makes lynx stream its drafts (TTFT = TTFT_spec, one retracted token).

#include <vector>

#include "sim/serving/request_metrics.hpp"

namespace lynxsim::report::testing {

inline serving::RequestMetrics make_request(std::uint64_t id, double ttft_ms, double commit_ms,
                                            std::vector<std::int64_t> planes) {
  serving::RequestMetrics r;
  r.id = id;
  r.context_tokens = 32768;
  r.output_tokens = 11;
  r.arrived_at = Time::zero();
  r.prefill_start_at = Time::from_ms(1.0);
  r.prefill_done_at = Time::from_ms(100.0);
  r.decode_ready_at = Time::from_ms(ttft_ms - 20.0);
  r.full_kv_at = Time::from_ms(commit_ms - 30.0);
  r.decode_joined_at = Time::from_ms(ttft_ms - 10.0);
  r.first_token_at = Time::from_ms(ttft_ms);
  r.first_commit_at = Time::from_ms(commit_ms);
  r.decode_first_token_at = r.first_token_at;
  r.decode_first_commit_at = r.first_commit_at;
  r.last_token_at = Time::from_ms(commit_ms + 100.0);
  for (const auto b : planes) r.plane_bytes.push_back(Bytes{b});
  r.committed_tokens = 11;
  return r;
}

inline serving::MethodResult make_result(const std::string& name, std::vector<int> planes,
                                         int decode_after, std::vector<double> ttft_ms,
                                         std::vector<double> commit_ms) {
  serving::MethodResult result;
  result.method.name = name;
  result.method.planes = planes;
  result.method.decode_after_planes = decode_after;
  std::vector<std::int64_t> plane_bytes;
  for (const int bits : planes) plane_bytes.push_back(1000 * bits);
  for (std::size_t i = 0; i < ttft_ms.size(); ++i) {
    result.requests.push_back(make_request(i, ttft_ms[i], commit_ms[i], plane_bytes));
  }
  result.simulated_time = Time::from_seconds(1.0);
  return result;
}

inline std::vector<serving::MethodResult> sample_results() {
  std::vector<serving::MethodResult> results;
  results.push_back(make_result("bf16", {16}, 1, {400.0, 600.0}, {400.0, 600.0}));
  results.push_back(make_result("int8", {8}, 1, {300.0, 300.0}, {300.0, 300.0}));
  auto lynx = make_result("lynx", {4, 4}, 1, {200.0, 200.0}, {350.0, 350.0});
  lynx.quality.acceptance = 0.9;
  lynx.quality.metrics["k_snr_db"] = 21.5;
  lynx.requests[0].drafted_tokens = 10;
  lynx.requests[0].accepted_tokens = 8;
  lynx.requests[0].rollbacks = 1;
  lynx.requests[0].wasted_draft_tokens = 1;
  results.push_back(lynx);
  return results;
}

inline std::vector<serving::MethodResult> streaming_drafts() {
  auto results = sample_results();
  results.back().stream = serving::SpeculationStream::speculative;
  for (auto& r : results.back().requests) r.streams_drafts = true;
  return results;
}

}  // namespace lynxsim::report::testing
