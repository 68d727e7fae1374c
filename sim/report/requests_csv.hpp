#pragma once
// requests.csv: one row per request and method, every field of RequestMetrics.
//
// Columns: method, id, context_tokens, output_tokens, then each timestamp as <name>_s (arrived_at_s,
// prefill_start_at_s, prefill_done_at_s, decode_ready_at_s, full_kv_at_s, decode_joined_at_s,
// first_token_at_s, first_commit_at_s, last_token_at_s), the derived durations (ttft_s, the TTFT
// the client sees; ttft_commit_s, tpot_s, e2e_s, exposed_transfer_s, prefill_queue_s,
// decode_admission_s, ttft_speculative_s, ttdt_speculative_s, ttdt_commit_s: request_metrics.hpp),
// the token counters (verifications, rollbacks, drafted_tokens, accepted_tokens,
// wasted_draft_tokens, retracted_tokens, committed_tokens), the cluster fields (prefill_instance,
// decode_instance, cached_tokens, cache_fetch_s, memory_wait_s,
// kv_admission_wait_s, meets_slo as 1 or 0), bytes_total
// and plane<p>_bytes for p below the largest plane count of the run
// (empty where a method has fewer planes); when a cachegen method ran, cachegen_text_chunks and
// cachegen_level<L>_chunks (chunks sent at quality level L, 0 = highest; empty for other methods).
// Times are printed exactly: the integer picoseconds of the simulator clock written as seconds
// with 12 decimals, so no precision is lost and the bytes are the same on every platform. Rows
// follow the run order of methods, then the order of requests in each result. Text fields are
// quoted per RFC 4180 when they hold a comma, quote or newline. Lines end with "\n".

#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "sim/core/time.hpp"
#include "sim/serving/request_metrics.hpp"

namespace lynxsim::report {

std::string requests_csv(std::span<const serving::MethodResult> results);
// The same text passed to `sink` in pieces of about 1 MiB, so the file is never held whole.
void write_requests_csv(std::span<const serving::MethodResult> results,
                        const std::function<void(std::string_view)>& sink);

// "-1.000000000005": the exact decimal seconds of a Time.
std::string exact_seconds(Time t);
std::string csv_field(const std::string& text);

}  // namespace lynxsim::report
