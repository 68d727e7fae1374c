#pragma once
// summary.json: the per-method aggregates of one run, for sweep scripts.
//
// {"schema_version": 1, "lynxsim_version": "0.1.0", "lynxsim_commit": git describe of the build,
//  "scenario": name, "engine": serving engine (when the run has one),
//  "method_order": [names in run order],
//  "methods": {name: {"family", "speculative", "stream", "first_token_from", "planes_bits": [..],
//    "requests": n,
//    "ttft_s" | "ttft_speculative_s" | "ttft_commit_s" | "ttdt_speculative_s" | "ttdt_commit_s" |
//    "tpot_s" | "e2e_s" | "exposed_transfer_s" | "prefill_queue_s" | "decode_admission_s" |
//    "memory_wait_s" | "kv_admission_wait_s" | "cache_fetch_s": {"mean", "p50", "p90", "p99"},
//    "bytes_per_plane": [..], "bytes_total", "verifications", "rollbacks", "drafted_tokens",
//    "accepted_tokens", "wasted_draft_tokens", "retracted_tokens", "requests_with_retractions",
//    "failed_requests", "degraded_requests", "reprefilled_requests", "kv_timeouts", "kv_bytes_sent",
//    "kv_bytes_wasted" (latency statistics are over the requests that did not fail),
//    "acceptance", "acceptance_low", "acceptance_high", "acceptance_source", "measured_acceptance", "accuracy": {metric: value},
//    "accuracy_context_tokens" (the context the accuracy was measured at; 0 when not measured),
//    "speedup": {latency metric: {baseline: x}}, "speedup_vs": {baseline: x} (= speedup.ttft_s),
//    "simulated_time_s", "events_executed",
//    cluster figures (method_summary.hpp): "prefill_instances", "decode_instances",
//    "requests_per_s", "output_tokens_per_s", "achieved_concurrency", "client_concurrency" (the
//    closed-loop client's cap; null for open-loop arrivals), "requests_meeting_slo", "goodput_requests_per_s",
//    "slo_attainment", "cache_lookup_blocks", "cache_hit_blocks", "cache_evicted_blocks",
//    "cache_hit_tokens", "cache_hit_rate", "cached_token_fraction", "peak_decode_memory_fraction",
//    "max_link_utilisation", "max_link_peak_utilisation",
//    "link_mean_utilisation" | "link_peak_utilisation": {link name "a->b": fraction}}}}
// Schema version 1 only ever gains fields: readers of older files find every key they knew.
// ttft_s is the TTFT the client sees (method_summary.hpp): for a speculative method under the
// default speculation.stream "committed" it equals ttft_commit_s; files written before the stream
// choice existed reported ttft_speculative_s there.
// Times in seconds, bytes in bytes. Object keys are sorted (deterministic output); a method's
// speedup_vs holds only the baselines present in the run. Non-finite numbers become null.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/method_summary.hpp"

namespace lynxsim::report {

inline constexpr int kSummarySchemaVersion = 1;

nlohmann::json stats_json(const Stats& stats);
// `engine` names the serving engine profile of the run (serving.engine); empty: none given.
nlohmann::json summary_json(const std::string& scenario_name,
                            const std::vector<MethodSummary>& summaries,
                            const std::string& engine = "");

}  // namespace lynxsim::report
