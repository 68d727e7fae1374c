#pragma once
// The routes a serving run needs, checked on the topology before the run starts (the network finds
// a missing route only when a flow starts, deep inside the run).
//
// With instance i of a role on the hosts Topology::place(role pool, i, rank, tp) gives its ranks:
//   kv               every host of a prefill instance to every host of a decode instance (the router
//                    may pair any two; none with aggregated context loading, whose prefill
//                    instances stay idle)
//   store            the store host of the prefix cache or of context loading to every prefill host
//                    (targets prefill and decode: the prefill instance fetches the exact prefix) and
//                    to every decode host (targets decode and aggregated)
//   expert_exchange  every host of a MoE prefill instance whose all-to-all runs as flows to every
//                    other host of it
// Reachability (net/reachability.hpp) costs O(nodes + links) once, then O(hosts) per check on a
// connected fabric. Background senders are the network's own (checked with its spec).

#include <string>
#include <vector>

#include "sim/net/topology.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::serving {

enum class RouteUse { kv, store, expert_exchange };

struct RouteProblem {
  RouteUse use = RouteUse::kv;
  std::string message;  // names the two hosts and what the route is for
};

// One problem per use that lacks a route; `placed` has the run's placement pools
// (net::build_placed_topology). Throws std::invalid_argument for an unknown store host.
std::vector<RouteProblem> missing_routes(const ServingConfig& config, const net::Topology& placed);

}  // namespace lynxsim::serving
