#include "sim/report/method_summary.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <iterator>
#include <stdexcept>

namespace lynxsim::report {
namespace {

using serving::RequestMetrics;

Stats stats_of(std::span<const RequestMetrics> requests,
               const std::function<Time(const RequestMetrics&)>& quantity) {
  std::vector<double> sample;
  sample.reserve(requests.size());
  for (const auto& r : requests) sample.push_back(quantity(r).seconds());
  return summarize(sample);
}

void add_latencies(MethodSummary& s, std::span<const RequestMetrics> requests) {
  s.ttft_s = stats_of(requests, [](const RequestMetrics& r) { return r.ttft(); });
  s.ttft_speculative_s = stats_of(requests, [](const RequestMetrics& r) { return r.ttft_speculative(); });
  s.ttft_commit_s = stats_of(requests, [](const RequestMetrics& r) { return r.ttft_commit(); });
  s.ttdt_speculative_s = stats_of(requests, [](const RequestMetrics& r) { return r.ttdt_speculative(); });
  s.ttdt_commit_s = stats_of(requests, [](const RequestMetrics& r) { return r.ttdt_commit(); });
  s.tpot_s = stats_of(requests, [](const RequestMetrics& r) { return r.tpot(); });
  s.e2e_s = stats_of(requests, [](const RequestMetrics& r) { return r.e2e(); });
  s.exposed_transfer_s =
      stats_of(requests, [](const RequestMetrics& r) { return r.exposed_transfer_time(); });
  s.prefill_queue_s =
      stats_of(requests, [](const RequestMetrics& r) { return r.prefill_queue_time(); });
  s.decode_admission_s =
      stats_of(requests, [](const RequestMetrics& r) { return r.decode_admission_time(); });
  s.memory_wait_s = stats_of(requests, [](const RequestMetrics& r) { return r.memory_wait_time; });
  s.kv_admission_wait_s = stats_of(requests, [](const RequestMetrics& r) { return r.kv_admission_wait; });
  s.cache_fetch_s = stats_of(requests, [](const RequestMetrics& r) { return r.cache_fetch_time; });
}

ClusterSummary cluster_summary(const serving::MethodResult& result) {
  const serving::ClusterStats& c = result.cluster;
  ClusterSummary s;
  s.num_prefill = c.num_prefill;
  s.num_decode = c.num_decode;
  s.requests_per_s = c.requests_per_s;
  s.output_tokens_per_s = c.output_tokens_per_s;
  s.achieved_concurrency = c.achieved_concurrency;
  s.client_concurrency = c.client_concurrency;
  s.requests_meeting_slo = c.requests_meeting_slo;
  s.goodput_requests_per_s = c.goodput_requests_per_s;
  s.cache_lookup_blocks = c.cache_lookup_blocks;
  s.cache_hit_blocks = c.cache_hit_blocks;
  s.cache_evicted_blocks = c.cache_evicted_blocks;
  s.cache_hit_tokens = c.cache_hit_tokens;
  s.cache_hit_rate = c.cache_block_hit_rate;
  s.peak_decode_memory_fraction = c.peak_decode_memory_fraction;
  s.max_link_utilisation = c.max_link_utilisation;
  s.energy = c.energy;
  std::int64_t context_tokens = 0;
  for (const auto& r : result.requests) context_tokens += r.context_tokens;
  if (!result.requests.empty()) {
    s.slo_attainment = static_cast<double>(c.requests_meeting_slo) /
                       static_cast<double>(result.requests.size());
  }
  if (context_tokens > 0) {
    s.cached_token_fraction =
        static_cast<double>(c.cache_hit_tokens) / static_cast<double>(context_tokens);
  }
  for (const auto& link : c.links) {
    s.links[link.link] = link;
    s.max_link_peak_utilisation = std::max(s.max_link_peak_utilisation, link.peak);
  }
  return s;
}

void add_cachegen_chunks(MethodSummary& s, const RequestMetrics& r) {
  auto& levels = s.cachegen_chunks_per_level;
  if (levels.size() < r.cachegen_chunks_per_level.size()) {
    levels.resize(r.cachegen_chunks_per_level.size());
  }
  for (std::size_t l = 0; l < r.cachegen_chunks_per_level.size(); ++l) {
    levels[l] += r.cachegen_chunks_per_level[l];
  }
  s.cachegen_text_chunks += r.cachegen_text_chunks;
}

void add_counters(MethodSummary& s, std::span<const RequestMetrics> requests) {
  for (const auto& r : requests) {
    if (s.bytes_per_plane.size() < r.plane_bytes.size()) s.bytes_per_plane.resize(r.plane_bytes.size());
    for (std::size_t p = 0; p < r.plane_bytes.size(); ++p) {
      s.bytes_per_plane[p] += r.plane_bytes[p].value;
      s.bytes_total += r.plane_bytes[p].value;
    }
    s.verifications += r.verifications;
    s.rollbacks += r.rollbacks;
    s.drafted_tokens += r.drafted_tokens;
    s.accepted_tokens += r.accepted_tokens;
    s.wasted_draft_tokens += r.wasted_draft_tokens;
    s.retracted_tokens += r.retracted_tokens();
    s.requests_with_retractions += r.retracted_tokens() > 0 ? 1 : 0;
    s.failed_requests += r.failed() ? 1 : 0;
    s.degraded_requests += r.degraded ? 1 : 0;
    s.reprefilled_requests += r.reprefilled ? 1 : 0;
    s.kv_timeouts += r.kv_timeouts;
    s.kv_bytes_sent += r.kv_bytes_sent.value;
    s.kv_bytes_wasted += r.kv_bytes_wasted.value;
    add_cachegen_chunks(s, r);
  }
  if (s.drafted_tokens > 0) {
    s.measured_acceptance =
        static_cast<double>(s.accepted_tokens) / static_cast<double>(s.drafted_tokens);
  }
}

void add_speedups(std::vector<MethodSummary>& summaries, const MethodSummary& base,
                  std::string_view metric) {
  const double base_mean = latency_metric(base, metric).mean;
  for (auto& s : summaries) {
    const double mean = latency_metric(s, metric).mean;
    if (s.num_requests > 0 && mean > 0.0) s.speedup[std::string(metric)][base.name] = base_mean / mean;
  }
}

}  // namespace

const Stats& latency_metric(const MethodSummary& summary, std::string_view metric) {
  if (metric == "ttft_s") return summary.ttft_s;
  if (metric == "ttft_speculative_s") return summary.ttft_speculative_s;
  if (metric == "ttft_commit_s") return summary.ttft_commit_s;
  if (metric == "ttdt_speculative_s") return summary.ttdt_speculative_s;
  if (metric == "ttdt_commit_s") return summary.ttdt_commit_s;
  throw std::logic_error(fmt::format("no latency metric named {}", metric));
}

const std::vector<std::string>& default_baselines() {
  static const std::vector<std::string> baselines{"int8", "bf16"};
  return baselines;
}

MethodSummary summarize_method(const serving::MethodResult& result) {
  MethodSummary s;
  s.name = result.method.name;
  s.family = std::string(quant::family_name(result.method.family));
  s.speculative = result.method.speculative();
  s.stream = result.stream == serving::SpeculationStream::speculative ? "speculative" : "committed";
  s.first_token_from = result.first_token_from == serving::FirstTokenSource::prefill ? "prefill" : "decode";
  s.planes_bits = result.method.planes;
  s.num_requests = result.requests.size();
  const auto failed = [](const RequestMetrics& r) { return r.failed(); };
  if (std::none_of(result.requests.begin(), result.requests.end(), failed)) {
    add_latencies(s, result.requests);
  } else {
    std::vector<RequestMetrics> finished;
    std::remove_copy_if(result.requests.begin(), result.requests.end(), std::back_inserter(finished), failed);
    add_latencies(s, finished);
  }
  add_counters(s, result.requests);
  s.acceptance = result.quality.acceptance;
  s.acceptance_low = result.quality.acceptance_low;
  s.acceptance_high = result.quality.acceptance_high;
  for (const auto& m : result.requests) s.max_context_tokens = std::max(s.max_context_tokens, m.context_tokens);
  s.acceptance_source = result.quality.acceptance_source;
  s.accuracy_context_tokens = result.quality.measured_context;
  s.accuracy = result.quality.metrics;
  s.simulated_time_s = result.simulated_time.seconds();
  s.events_executed = result.events_executed;
  s.cluster = cluster_summary(result);
  return s;
}

std::vector<MethodSummary> summarize_methods(std::span<const serving::MethodResult> results,
                                             const std::vector<std::string>& baselines) {
  std::vector<MethodSummary> summaries;
  summaries.reserve(results.size());
  for (const auto& r : results) summaries.push_back(summarize_method(r));
  for (const auto& baseline : baselines) {
    const auto it = std::find_if(summaries.begin(), summaries.end(),
                                 [&](const MethodSummary& s) { return s.name == baseline; });
    if (it == summaries.end() || it->num_requests == 0) continue;
    for (const char* metric : kSpeedupMetrics) add_speedups(summaries, *it, metric);
  }
  for (auto& s : summaries) s.speedup_vs = s.speedup["ttft_s"];
  return summaries;
}

}  // namespace lynxsim::report
