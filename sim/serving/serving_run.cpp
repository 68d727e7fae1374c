#include "sim/serving/serving_run.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <vector>
#include <stdexcept>

#include "sim/serving/serving_cluster.hpp"

namespace lynxsim::serving {
namespace {

// One metrics record (in `records`, sized here and never resized) and one state per request.
std::vector<RequestState> make_requests(const ServingConfig& config, const quant::MethodSpec& method,
                                        std::vector<RequestMetrics>& records) {
  const bool streams_drafts =
      method.speculative() && config.speculation.stream == SpeculationStream::speculative;
  records.assign(config.requests.size(), RequestMetrics{});
  std::vector<RequestState> states;
  states.reserve(config.requests.size());
  for (std::size_t i = 0; i < config.requests.size(); ++i) {
    const RequestSpec& spec = config.requests[i];
    if (spec.context_tokens < 1 || spec.output_tokens < 1) {
      throw std::invalid_argument("requests need at least one context and one output token");
    }
    RequestState& s = states.emplace_back(records[i]);
    s.metrics.id = i;
    s.metrics.context_tokens = spec.context_tokens;
    s.metrics.output_tokens = spec.output_tokens;
    s.metrics.arrived_at = spec.arrival_at;
    s.metrics.streams_drafts = streams_drafts;
    if (!spec.hash_ids.empty()) s.hash_ids = &spec.hash_ids;
  }
  return states;
}

bool meets_slo(const ServingSlo& slo, const RequestMetrics& m) {
  return !m.failed() && (!slo.ttft || m.ttft() <= *slo.ttft) && (!slo.tpot || m.tpot() <= *slo.tpot);
}

double achieved_concurrency(const std::vector<RequestMetrics>& requests) {
  if (requests.empty()) return 0.0;
  Time first = Time::max();
  Time last = Time::zero();
  double busy_s = 0.0;
  for (const RequestMetrics& m : requests) {
    if (m.failed()) continue;
    first = std::min(first, m.arrived_at);
    last = std::max(last, m.last_token_at);
    busy_s += m.e2e().seconds();
  }
  const double span_s = (last - first).seconds();
  return span_s > 0.0 ? busy_s / span_s : 0.0;
}

void add_rates(ClusterStats& s, const std::vector<RequestMetrics>& requests, Time end) {
  const double seconds = end.seconds();
  std::int64_t tokens = 0;
  std::int64_t finished = 0;
  for (const RequestMetrics& m : requests) {
    finished += m.failed() ? 0 : 1;
    tokens += m.failed() ? 0 : m.output_tokens;
    s.requests_meeting_slo += m.meets_slo ? 1 : 0;
    s.cache_hit_tokens += m.cached_tokens;
  }
  if (seconds <= 0.0) return;
  s.achieved_concurrency = achieved_concurrency(requests);
  s.requests_per_s = static_cast<double>(finished) / seconds;
  s.output_tokens_per_s = static_cast<double>(tokens) / seconds;
  s.goodput_requests_per_s = static_cast<double>(s.requests_meeting_slo) / seconds;
}

void throw_if_unserved(const std::vector<RequestState>& requests, const ServingCluster& cluster) {
  std::vector<std::uint64_t> ids;
  for (const RequestState& r : requests) {
    if (!r.finished) ids.push_back(r.metrics.id);
  }
  if (ids.empty()) return;
  if (cluster.flows_in_flight() == 0) {
    throw std::logic_error("a request did not finish: the serving model stalled");
  }
  throw UnservedRequests(std::move(ids),
                         fmt::format("{} flows could not deliver their last byte within the simulator's "
                                     "clock (int64 picoseconds, about 106 days) at the rates the network "
                                     "gave them", cluster.flows_in_flight()));
}

std::string unserved_message(const std::vector<std::uint64_t>& ids, const std::string& cause) {
  std::string list;
  for (std::size_t i = 0; i < ids.size() && i < 10; ++i) list += fmt::format("{}{}", i ? ", " : "", ids[i]);
  if (ids.size() > 10) list += ", ...";
  return fmt::format("{} requests could not be served (ids {}): {}", ids.size(), list, cause);
}

}  // namespace

UnservedRequests::UnservedRequests(std::vector<std::uint64_t> ids, std::string cause)
    : std::runtime_error(unserved_message(ids, cause)), ids_(std::move(ids)) {}

double effective_acceptance(const ServingConfig& config, const quant::MethodSpec& method,
                            const MethodQuality& quality) {
  if (method.acceptance) return *method.acceptance;
  if (config.speculation.acceptance) return *config.speculation.acceptance;
  return quality.acceptance;
}

namespace {

MethodResult run_once(const ServingConfig& config, const quant::MethodSpec& method,
                      const MethodQuality& quality, const SimulatorHook& hook, bool merge_quiet_steps) {
  Simulator sim(config.seed);
  if (hook) hook(sim);
  MethodQuality used = quality;
  if (method.acceptance || config.speculation.acceptance) {
    used.acceptance = effective_acceptance(config, method, quality);
    used.acceptance_source = "scenario";
    used.acceptance_low = used.acceptance;
    used.acceptance_high = used.acceptance;
  }
  ServingCluster cluster(sim, config, method, used.acceptance, used, merge_quiet_steps);
  std::vector<RequestMetrics> records;
  std::vector<RequestState> requests = make_requests(config, method, records);
  cluster.schedule(requests);
  sim.run();

  MethodResult result{method,           used, config.speculation.stream, config.first_token_from, {},
                      sim.events_executed(), sim.now(), cluster.stats(sim.now())};
  throw_if_unserved(requests, cluster);
  for (RequestState& r : requests) {
    r.metrics.meets_slo = meets_slo(config.slo, r.metrics);
  }
  result.requests = std::move(records);
  add_rates(result.cluster, result.requests, result.simulated_time);
  if (config.client) result.cluster.client_concurrency = config.client->concurrency;
  return result;
}

}  // namespace

MethodResult run_serving(const ServingConfig& config, const quant::MethodSpec& method,
                         const MethodQuality& quality, const SimulatorHook& hook) {
  try {
    return run_once(config, method, quality, hook, true);
  } catch (const QuietStepTie&) {
    return run_once(config, method, quality, hook, false);
  }
}

}  // namespace lynxsim::serving
