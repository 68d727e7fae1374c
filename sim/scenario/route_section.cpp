// check_routes: every route a run needs exists (serving/route_check.hpp). The generated topology
// kinds join every host to every other by construction; an explicit graph is checked, each missing
// route at the key that placed its hosts: /network/decode_hosts (or prefill_hosts, or the topology)
// for KV, the store host for the KV store, the prefill pool for the expert all-to-all.

#include <variant>

#include "sim/net/network_factory.hpp"
#include "sim/serving/route_check.hpp"
#include "sim/scenario/scenario_sections.hpp"

namespace lynxsim::scenario {
namespace {

std::string route_path(const Scenario& s, serving::RouteUse use) {
  const auto& pools = s.network.pool_hosts;
  const bool prefill_given = !pools.empty() && !pools[0].empty();
  const bool decode_given = pools.size() > 1 && !pools[1].empty();
  switch (use) {
    case serving::RouteUse::kv:
      if (decode_given) return "/network/decode_hosts";
      return prefill_given ? "/network/prefill_hosts" : "/network/topology";
    case serving::RouteUse::store:
      return s.serving.prefix_cache.enabled ? "/prefix_cache/store_host" : "/context_loading/store_host";
    case serving::RouteUse::expert_exchange:
      return prefill_given ? "/network/prefill_hosts" : "/network/topology";
  }
  return "/network";
}

}  // namespace

void check_routes(const Scenario& s, IssueList& issues) {
  if (!std::holds_alternative<net::GraphTopology>(s.network.topology)) return;
  const net::Topology placed = net::build_placed_topology(s.network);
  for (const serving::RouteProblem& p : serving::missing_routes(s.serving, placed)) {
    issues.add(route_path(s, p.use), p.message);
  }
}

}  // namespace lynxsim::scenario
