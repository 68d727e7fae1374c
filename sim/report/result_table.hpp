#pragma once
// The compact terminal table of a run: one row per method, in run order.
//
// Columns: method, mean TTFT_spec and TTFT_commit (method_summary.hpp), and when the prefill
// instance emits the first token also mean TTDT_spec and TTDT_commit (the first decode token), mean
// TPOT, mean E2E (each with an adaptive unit: us below 1 ms, ms below 1 s, s above), total bytes
// sent (all planes of all requests, binary units), then against each baseline the speedup of both
// readings side by side ("spec vs int8", "commit vs int8": mean of the baseline / mean of the
// method, "1.43x"; "-" when the baseline is not in the run; on TTDT when prefill emits the first
// token, since TTFT then ties), then one column per accuracy metric found in any method's
// MethodQuality::metrics (sorted by name; "-" where a method lacks it), and when any method is
// speculative the acceptance it ran with and, when drafts stream to the client, the retracted
// tokens. Lines under the table say which TTFT the client sees and why TTFTs tie when they do.
// TableOptions choose the compact form and percentile columns.
// Numbers are right-aligned, names left-aligned; the output ends with a newline.

#include <string>
#include <vector>

#include "sim/report/method_summary.hpp"

namespace lynxsim::report {

struct TableOptions {
  std::vector<std::string> baselines = default_baselines();
  // Accuracy metrics to show; empty shows every metric present.
  std::vector<std::string> accuracy_columns;
  // false: the compact table (under 100 columns for the bundled scenarios): no E2E, the first
  // baseline and the first accuracy metric only, short labels ("spec/int8", "needle"), and the
  // TTDT columns instead of the tied TTFT ones when prefill emits the first token.
  bool wide = true;
  // The client's TTFT p50, p90 and p99 beside the means.
  bool percentiles = false;
};

std::string format_result_table(const std::vector<MethodSummary>& summaries,
                                const TableOptions& options = {});

// The cluster view of a run, one row per method: instances (prefill+decode), throughput (requests
// and output tokens per simulated second), goodput and the share of requests meeting the SLOs,
// p99 TTFT, mean prefill queueing and decode-memory wait, prefix-cache block hit rate, peak decode
// memory (share of usable HBM) and the largest mean link utilisation.
std::string format_cluster_table(const std::vector<MethodSummary>& summaries);

// The width the notes under a table are wrapped to.
inline constexpr std::size_t kTableTextWidth = 100;
// `text` with each line broken at spaces into lines of at most `width` characters (a longer word
// stays whole); line breaks of the text are kept.
std::string wrap_text(const std::string& text, std::size_t width);

// "850.0us", "12.35ms", "1.235s".
std::string format_duration_s(double seconds);
// "512B", "1.50KiB", "64.00MiB", "2.50GiB".
std::string format_byte_count(std::int64_t bytes);

}  // namespace lynxsim::report
