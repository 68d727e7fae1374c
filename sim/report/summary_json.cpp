#include "sim/report/summary_json.hpp"

#include "sim/core/build_info.hpp"

#include <cmath>

namespace lynxsim::report {
namespace {

nlohmann::json number(double value) {
  if (!std::isfinite(value)) return nullptr;
  return value;
}

nlohmann::json number_map(const std::map<std::string, double>& values) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : values) out[key] = number(value);
  return out;
}

nlohmann::json speedup_json(const std::map<std::string, std::map<std::string, double>>& speedup) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [metric, ratios] : speedup) out[metric] = number_map(ratios);
  return out;
}

nlohmann::json energy_json(const std::optional<serving::EnergyTotals>& e) {
  if (!e) return nullptr;
  return {{"gpu_idle_j", number(e->gpu_idle_j)}, {"gpu_work_j", number(e->gpu_work_j)},
          {"codec_j", number(e->codec_j)}, {"network_j", number(e->network_j)}, {"total_j", number(e->total_j())},
          {"joules_per_request", number(e->per_request_j)}, {"joules_per_token", number(e->per_token_j)}};
}

void add_cluster(nlohmann::json& out, const ClusterSummary& c) {
  nlohmann::json link_mean = nlohmann::json::object();
  nlohmann::json link_peak = nlohmann::json::object();
  for (const auto& [id, link] : c.links) {
    const std::string key = link.name.empty() ? std::to_string(id) : link.name;
    link_mean[key] = number(link.mean);
    link_peak[key] = number(link.peak);
  }
  out.update({
      {"prefill_instances", c.num_prefill},
      {"decode_instances", c.num_decode},
      {"requests_per_s", number(c.requests_per_s)},
      {"output_tokens_per_s", number(c.output_tokens_per_s)},
      {"achieved_concurrency", number(c.achieved_concurrency)},
      {"client_concurrency", c.client_concurrency > 0 ? nlohmann::json(c.client_concurrency) : nullptr},
      {"requests_meeting_slo", c.requests_meeting_slo},
      {"goodput_requests_per_s", number(c.goodput_requests_per_s)},
      {"slo_attainment", number(c.slo_attainment)},
      {"energy", energy_json(c.energy)},
      {"cache_lookup_blocks", c.cache_lookup_blocks},
      {"cache_hit_blocks", c.cache_hit_blocks},
      {"cache_evicted_blocks", c.cache_evicted_blocks},
      {"cache_hit_tokens", c.cache_hit_tokens},
      {"cache_hit_rate", number(c.cache_hit_rate)},
      {"cached_token_fraction", number(c.cached_token_fraction)},
      {"peak_decode_memory_fraction", number(c.peak_decode_memory_fraction)},
      {"max_link_utilisation", number(c.max_link_utilisation)},
      {"max_link_peak_utilisation", number(c.max_link_peak_utilisation)},
      {"link_mean_utilisation", link_mean},
      {"link_peak_utilisation", link_peak},
  });
}

nlohmann::json method_json(const MethodSummary& s) {
  nlohmann::json out = {
      {"family", s.family},
      {"speculative", s.speculative},
      {"stream", s.stream},
      {"first_token_from", s.first_token_from},
      {"planes_bits", s.planes_bits},
      {"requests", s.num_requests},
      {"ttft_s", stats_json(s.ttft_s)},
      {"ttft_speculative_s", stats_json(s.ttft_speculative_s)},
      {"ttft_commit_s", stats_json(s.ttft_commit_s)},
      {"ttdt_speculative_s", stats_json(s.ttdt_speculative_s)},
      {"ttdt_commit_s", stats_json(s.ttdt_commit_s)},
      {"tpot_s", stats_json(s.tpot_s)},
      {"e2e_s", stats_json(s.e2e_s)},
      {"exposed_transfer_s", stats_json(s.exposed_transfer_s)},
      {"prefill_queue_s", stats_json(s.prefill_queue_s)},
      {"decode_admission_s", stats_json(s.decode_admission_s)},
      {"memory_wait_s", stats_json(s.memory_wait_s)},
      {"kv_admission_wait_s", stats_json(s.kv_admission_wait_s)},
      {"cache_fetch_s", stats_json(s.cache_fetch_s)},
      {"bytes_per_plane", s.bytes_per_plane},
      {"bytes_total", s.bytes_total},
      {"verifications", s.verifications},
      {"rollbacks", s.rollbacks},
      {"drafted_tokens", s.drafted_tokens},
      {"accepted_tokens", s.accepted_tokens},
      {"wasted_draft_tokens", s.wasted_draft_tokens},
      {"retracted_tokens", s.retracted_tokens},
      {"requests_with_retractions", s.requests_with_retractions},
      {"failed_requests", s.failed_requests},
      {"degraded_requests", s.degraded_requests},
      {"reprefilled_requests", s.reprefilled_requests},
      {"kv_timeouts", s.kv_timeouts},
      {"kv_bytes_sent", s.kv_bytes_sent},
      {"kv_bytes_wasted", s.kv_bytes_wasted},
      {"acceptance", number(s.acceptance)},
      {"acceptance_low", number(s.acceptance_low)},
      {"acceptance_high", number(s.acceptance_high)},
      {"acceptance_source", s.acceptance_source},
      {"accuracy_context_tokens", s.accuracy_context_tokens},
      {"measured_acceptance", number(s.measured_acceptance)},
      {"cachegen_chunks_per_level", s.cachegen_chunks_per_level},
      {"cachegen_text_chunks", s.cachegen_text_chunks},
      {"accuracy", number_map(s.accuracy)},
      {"speedup", speedup_json(s.speedup)},
      {"speedup_vs", number_map(s.speedup_vs)},
      {"simulated_time_s", number(s.simulated_time_s)},
      {"events_executed", s.events_executed},
  };
  add_cluster(out, s.cluster);
  return out;
}

}  // namespace

nlohmann::json stats_json(const Stats& stats) {
  return {{"mean", number(stats.mean)},
          {"p50", number(stats.p50)},
          {"p90", number(stats.p90)},
          {"p99", number(stats.p99)}};
}

nlohmann::json summary_json(const std::string& scenario_name,
                            const std::vector<MethodSummary>& summaries, const std::string& engine) {
  nlohmann::json methods = nlohmann::json::object();
  nlohmann::json order = nlohmann::json::array();
  for (const auto& s : summaries) {
    methods[s.name] = method_json(s);
    order.push_back(s.name);
  }
  nlohmann::json out = {{"schema_version", kSummarySchemaVersion},
                        {"lynxsim_version", std::string(lynxsim_version())},
                        {"lynxsim_commit", std::string(lynxsim_commit())},
                        {"scenario", scenario_name},
                        {"method_order", order},
                        {"methods", methods}};
  if (!engine.empty()) out["engine"] = engine;
  return out;
}

}  // namespace lynxsim::report
