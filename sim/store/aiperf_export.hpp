#pragma once
// AIPerf's per-request export, profile_export.jsonl, read for `lynxsim replay`.
//
// One JSON record per line, per request (aiperf docs/tutorials/working-with-profile-exports.md,
// aiperf/common/models/record_models.py MetricRecordInfo): "metadata" (request_start_ns: epoch ns at
// send; benchmark_phase; was_cancelled; worker, session and conversation ids, not read), "metrics"
// (each {"value", "unit"}: input_sequence_length and output_sequence_length in tokens,
// time_to_first_token and request_latency in a time unit: ns, us, ms, sec or s) and "error" (null,
// or {code, type, message} for a failed request, whose metrics are then not the request's). A
// failed or cancelled request is left out and counted; a record of the "warmup" phase is skipped.
// The lengths are AIPerf's exact per-request counts (output_sequence_length includes reasoning
// tokens: every token the engine generated). The measured metrics are AIPerf's own per-request
// values; its ITL is (request_latency - TTFT) / (output_sequence_length - 1), replay_table.hpp's
// TPOT; request throughput = successful requests / (last request end - first send), as AIPerf's
// benchmark_duration (docs/metrics_reference.md), the end of a request being its send plus its
// request latency. A record without time_to_first_token (a non-streaming run) is refused: the
// file then has no TTFT to compare.
//
// The client, from the aggregate file AIPerf writes beside it (STEM_aiperf.json, its
// "input_config"."loadgen", which AIPerf says is not a stable format): with a concurrency, the
// closed loop at that concurrency, its arrivals at request_rate (request_rate_mode "poisson":
// burstiness 1; "constant": a gamma of shape 10^6, intervals within 0.1% of 1 / rate; the draws
// are the scenario seed's) or all ready at once without one. Without a concurrency, without the
// file, or without its loadgen section: open loop at the recorded send times, which is exact for
// a rate-driven or fixed-schedule run and, for a closed-loop run, sends each request when the real
// client did rather than when the simulated slot frees.
// The turns of a multi-turn session are independent requests here (turn_index is not read).
// Errors name the file and a JSON pointer whose first step is the line number (from 1).

#include <string>

#include "sim/store/benchmark_result.hpp"

namespace lynxsim::store {

BenchmarkResult aiperf_result_from_lines(const std::string& text, const std::string& document,
                                         const ResultSettings& settings);

}  // namespace lynxsim::store
