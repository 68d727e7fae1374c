#include "sim/scenario/memory_estimate.hpp"

#include <algorithm>

#include "sim/core/saturating.hpp"

namespace lynxsim::scenario {

std::int64_t run_memory_bytes(const ResourceEstimate& e, std::int64_t methods, std::int64_t trace_events) {
  const std::int64_t per_request = saturating_add(kMemoryPerRequest, saturating_mul(methods, kMemoryPerRequestMethod));
  std::int64_t bytes = kMemoryBaseBytes;
  bytes = saturating_add(bytes, saturating_mul(e.requests, per_request));
  const std::int64_t nodes = saturating_add(e.network.hosts, e.network.switches);
  bytes = saturating_add(bytes, saturating_mul(nodes, kMemoryPerNode));
  bytes = saturating_add(bytes, saturating_mul(e.network.links, kMemoryPerLink));
  const std::int64_t hops = saturating_add(e.network.switches, 2);
  const std::int64_t routes = saturating_mul(std::min(e.flows_at_most, kMemoryRouteFlows), hops);
  bytes = saturating_add(bytes, saturating_mul(routes, kMemoryPerRouteHop));
  return saturating_add(bytes, saturating_mul(trace_events, kMemoryPerTraceEvent));
}

}  // namespace lynxsim::scenario
