#pragma once
// Per-method aggregates of a serving run: what the table, summary.json and sweep scripts show.
//
// Latency figures are Stats (mean, p50, p90, p99; see statistics.hpp) over the requests of the
// method, in seconds, of the quantities defined in request_metrics.hpp (TTFT, TTFT_commit, TPOT,
// E2E, exposed transfer, prefill queueing, decode admission). Byte figures are totals over all
// requests: bytes_per_plane[p] sums plane p of every request, bytes_total sums all planes. Token
// counters (rollbacks, wasted drafts, ...) are totals as well, and so are CacheGen's chunk counts:
// cachegen_chunks_per_level[L] chunks of all requests sent at quality level L (0 = highest),
// cachegen_text_chunks sent as text and recomputed (both empty / 0 for other methods).
//
// TTFT has three readings (request_metrics.hpp): ttft_speculative_s (first token made, a draft for
// Lynx: the paper's TTFT), ttft_commit_s (first verified token) and ttft_s, what the client sees
// under the scenario's speculation.stream (committed by default: ttft_s = ttft_commit_s). The first
// decode token (ttdt_*) differs from the first token only when the prefill instance emits it.
// retracted_tokens counts drafts the client saw withdrawn (0 unless drafts stream).
//
// Speedups compare means: speedup[metric][b] = mean of the metric for baseline b / mean for this
// method, for metric in kSpeedupMetrics, so 1.43 means "43% faster than b". speedup_vs is
// speedup["ttft_s"], the client's reading. A baseline is a method of the same run whose name equals
// b; absent baselines (or a zero mean) leave no entry.
//
// `acceptance` is the per-token draft acceptance the method ran with (MethodQuality), while
// `measured_acceptance` is accepted / drafted tokens actually observed (0 when nothing was drafted).
//
// Cluster figures come from the run's ClusterStats (request_metrics.hpp): throughput (requests and
// output tokens per simulated second), goodput (requests meeting the scenario's SLOs per second)
// and slo_attainment = meeting / all requests, the prefix cache's block hit rate and the share of
// context tokens it served (cached_token_fraction = cached tokens / context tokens), the peak
// fraction of usable decode HBM any decode instance reserved, and link utilisation: per directed
// link that carried traffic its mean (time-integrated load / capacity) and peak, with
// max_link_utilisation the largest mean and max_link_peak_utilisation the largest peak.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/report/statistics.hpp"
#include "sim/serving/request_metrics.hpp"

namespace lynxsim::report {

struct ClusterSummary {
  int num_prefill = 1;
  int num_decode = 1;
  double requests_per_s = 0.0;
  double output_tokens_per_s = 0.0;
  double achieved_concurrency = 0.0;
  int client_concurrency = 0;
  std::int64_t requests_meeting_slo = 0;
  double goodput_requests_per_s = 0.0;
  double slo_attainment = 0.0;
  std::int64_t cache_lookup_blocks = 0;
  std::int64_t cache_hit_blocks = 0;
  std::int64_t cache_evicted_blocks = 0;
  std::int64_t cache_hit_tokens = 0;
  double cache_hit_rate = 0.0;
  double cached_token_fraction = 0.0;
  double peak_decode_memory_fraction = 0.0;
  double max_link_utilisation = 0.0;
  double max_link_peak_utilisation = 0.0;
  std::map<std::uint32_t, serving::LinkUtilisation> links;
  std::optional<serving::EnergyTotals> energy;  // plan/energy.hpp; absent without power figures
};

// The latency metrics speedups are computed for, in report order.
inline constexpr std::array<const char*, 5> kSpeedupMetrics{
    "ttft_s", "ttft_speculative_s", "ttft_commit_s", "ttdt_speculative_s", "ttdt_commit_s"};

struct MethodSummary {
  std::string name;
  std::string family;
  bool speculative = false;
  std::string stream = "committed";
  std::string first_token_from = "decode";
  std::vector<int> planes_bits;
  std::size_t num_requests = 0;
  int max_context_tokens = 0;
  Stats ttft_s;
  Stats ttft_speculative_s;
  Stats ttft_commit_s;
  Stats ttdt_speculative_s;
  Stats ttdt_commit_s;
  Stats tpot_s;
  Stats e2e_s;
  Stats exposed_transfer_s;
  Stats prefill_queue_s;
  Stats decode_admission_s;
  Stats memory_wait_s;
  Stats kv_admission_wait_s;
  Stats cache_fetch_s;
  std::vector<std::int64_t> bytes_per_plane;
  std::int64_t bytes_total = 0;
  std::int64_t verifications = 0;
  std::int64_t rollbacks = 0;
  std::int64_t drafted_tokens = 0;
  std::int64_t accepted_tokens = 0;
  std::int64_t wasted_draft_tokens = 0;
  std::int64_t retracted_tokens = 0;
  std::int64_t requests_with_retractions = 0;
  // Transfer timeouts (kv_transfer_faults.hpp); latencies above are over the requests that finished.
  std::int64_t failed_requests = 0;
  std::int64_t degraded_requests = 0;
  std::int64_t reprefilled_requests = 0;
  std::int64_t kv_timeouts = 0;
  std::int64_t kv_bytes_sent = 0;
  std::int64_t kv_bytes_wasted = 0;
  double acceptance = 1.0;
  double acceptance_low = 1.0;   // the range the acceptance measurement supports
  double acceptance_high = 1.0;
  std::string acceptance_source;
  int accuracy_context_tokens = 0;  // the context the accuracy metrics were measured at (0: none)
  double measured_acceptance = 0.0;
  std::vector<std::int64_t> cachegen_chunks_per_level;
  std::int64_t cachegen_text_chunks = 0;
  std::map<std::string, double> accuracy;
  std::map<std::string, std::map<std::string, double>> speedup;
  std::map<std::string, double> speedup_vs;
  double simulated_time_s = 0.0;
  std::uint64_t events_executed = 0;
  ClusterSummary cluster;
};

// The baselines speedups are computed against, in table order.
const std::vector<std::string>& default_baselines();

MethodSummary summarize_method(const serving::MethodResult& result);

// The Stats of a metric named in kSpeedupMetrics.
const Stats& latency_metric(const MethodSummary& summary, std::string_view metric);

// One summary per result, in input order, with speedup_vs filled for each baseline present.
std::vector<MethodSummary> summarize_methods(std::span<const serving::MethodResult> results,
                                             const std::vector<std::string>& baselines =
                                                 default_baselines());

}  // namespace lynxsim::report
