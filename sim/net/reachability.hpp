#pragma once
// Which hosts of a topology can reach which, to check before a run that every route it needs
// exists (the router throws "no route" only when a flow starts).
//
// Hosts never forward traffic (router.hpp) and every link is full duplex, so host a reaches host b
// exactly when a == b, a link joins them, or a and b touch switches of one connected component of
// the switch graph (the switches and the links between switches). The components are found once by
// union-find, in O(nodes + links); a query then costs O(links of a + links of b).
// first_unreachable checks every pair of two host sets: in O(|from| + |to|) when one component
// touches all their hosts (every generated topology), else per distinct set of components a host
// touches (graph topologies), hosts with a direct host-to-host link or no link at all one by one.

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "sim/net/topology.hpp"

namespace lynxsim::net {

class Reachability {
public:
  explicit Reachability(const Topology& topology);

  bool reaches(HostId a, HostId b) const;
  // A pair (a from `from`, b from `to`) that no route joins, or nullopt when every pair is joined.
  std::optional<std::pair<HostId, HostId>> first_unreachable(std::span<const HostId> from,
                                                             std::span<const HostId> to) const;

private:
  std::optional<std::pair<HostId, HostId>> by_component(const std::vector<HostId>& from,
                                                        const std::vector<HostId>& to) const;

  std::vector<std::vector<std::uint32_t>> components_;  // per host: sorted switch components
  std::vector<std::vector<HostId>> neighbours_;         // per host: hosts linked directly
};

}  // namespace lynxsim::net
