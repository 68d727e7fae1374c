#include "sim/net/topology_size.hpp"

#include <variant>

#include "sim/core/saturating.hpp"

namespace lynxsim::net {
namespace {

TopologySize size_of(const SingleLinkTopology&) { return {2, 0, 1}; }

TopologySize size_of(const LeafSpineTopology& t) {
  const std::int64_t hosts = saturating_mul(t.leaves, t.hosts_per_leaf);
  return {hosts, saturating_add(t.spines, t.leaves),
          saturating_add(hosts, saturating_mul(t.leaves, t.spines))};
}

TopologySize size_of(const FatTreeTopology& t) {
  const std::int64_t square = saturating_mul(t.k, t.k);
  const std::int64_t hosts = saturating_mul(square, t.k) / 4;
  return {hosts, saturating_mul(5, square) / 4, saturating_mul(3, hosts)};
}

TopologySize size_of(const CrossDcTopology& t) {
  const std::int64_t hosts = saturating_mul(2, t.hosts_per_site);
  return {hosts, 2, saturating_add(hosts, 1)};
}

TopologySize size_of(const NvlinkIslandTopology& t) { return {t.gpus, 1, t.gpus}; }

TopologySize size_of(const GraphTopology& t) {
  return {static_cast<std::int64_t>(t.hosts.size()), static_cast<std::int64_t>(t.switches.size()),
          static_cast<std::int64_t>(t.links.size())};
}

}  // namespace

TopologySize topology_size(const TopologySpec& spec) {
  return std::visit([](const auto& s) { return size_of(s); }, spec);
}

}  // namespace lynxsim::net
