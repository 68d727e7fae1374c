#pragma once
// The size of a topology before it is built: hosts, switches and links (cables; each carries two
// directed links), in closed form from its TopologySpec, so that a shape too large to build is
// refused without allocating it.
//   single-link    2 hosts, 0 switches, 1 link
//   leaf-spine     L * H hosts, S + L switches, L * H + L * S links
//   fat-tree       k^3 / 4 hosts, 5 k^2 / 4 switches, 3 k^3 / 4 links
//   cross-dc       2 H hosts, 2 switches, 2 H + 1 links
//   nvlink-island  G hosts, 1 switch, G links
//   graph          as listed
// Counts saturate at INT64_MAX instead of wrapping (sim/core/saturating.hpp).

#include <cstdint>
#include <limits>

#include "sim/net/network_spec.hpp"

namespace lynxsim::net {

struct TopologySize {
  std::int64_t hosts = 0;
  std::int64_t switches = 0;
  std::int64_t links = 0;
};

TopologySize topology_size(const TopologySpec& spec);

// The largest topology a parser accepts (a caller's input limits; unlimited by default).
struct TopologyLimits {
  std::int64_t max_hosts = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_links = std::numeric_limits<std::int64_t>::max();
};

}  // namespace lynxsim::net
