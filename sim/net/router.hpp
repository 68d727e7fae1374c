#pragma once
// Shortest-path routing with equal-cost multipath (ECMP).
//
// Path cost is the hop count. For each destination the router computes, once and lazily, the hop
// distance of every node to it by breadth-first search (Boost.Graph) over the link graph, where
// hosts other than the destination are leaves: they can start a path but never forward one. A
// route is then walked from the source: at each node the next hop is one of the out-links whose head
// is one hop closer to the destination, chosen by a hash of (flow key, node). This is per-switch
// ECMP as switches do it (a 5-tuple hash): deterministic for a given flow key, spread uniformly over
// equal-cost next hops, and every route it yields is a shortest path.

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/net/topology.hpp"

namespace lynxsim::net {

class Router {
public:
  explicit Router(const Topology& topology);
  ~Router();
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  // Directed links from src to dst (empty when src == dst). Throws std::invalid_argument when dst
  // cannot be reached from src.
  std::vector<LinkId> route(HostId src, HostId dst, std::uint64_t flow_key) const;
  // Number of hops of a shortest path.
  std::uint32_t distance(HostId src, HostId dst) const;

private:
  const std::vector<std::uint32_t>& distances_to(NodeId dst) const;

  struct Graph;
  const Topology& topology_;
  std::unique_ptr<Graph> graph_;
  mutable std::vector<std::vector<std::uint32_t>> distances_;
};

}  // namespace lynxsim::net
