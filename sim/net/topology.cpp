#include "sim/net/topology.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace lynxsim::net {

NodeId Topology::add_node(std::string name, bool is_host) {
  if (name.empty()) throw std::invalid_argument("topology node with an empty name");
  if (node_index_.contains(name)) {
    throw std::invalid_argument(fmt::format("topology node '{}' defined twice", name));
  }
  const auto id = static_cast<NodeId>(nodes_.size());
  Node n{name, is_host, 0};
  if (is_host) {
    n.host = static_cast<HostId>(hosts_.size());
    hosts_.push_back(id);
  }
  nodes_.push_back(std::move(n));
  out_links_.emplace_back();
  node_index_.emplace(std::move(name), id);
  return id;
}

NodeId Topology::add_host(std::string name) { return add_node(std::move(name), true); }
NodeId Topology::add_switch(std::string name) { return add_node(std::move(name), false); }

LinkId Topology::connect(NodeId a, NodeId b, const LinkSpec& spec, std::string name) {
  if (a >= nodes_.size() || b >= nodes_.size() || a == b) {
    throw std::invalid_argument("topology link must join two distinct existing nodes");
  }
  if (name.empty()) name = nodes_[a].name + "-" + nodes_[b].name;
  if (!(spec.rate.value > 0.0)) {
    throw std::invalid_argument(fmt::format("link '{}': rate must be positive", name));
  }
  if (spec.latency < Time::zero()) {
    throw std::invalid_argument(fmt::format("link '{}': latency must not be negative", name));
  }
  if (!(spec.efficiency > 0.0 && spec.efficiency <= 1.0)) {
    throw std::invalid_argument(fmt::format("link '{}': efficiency must be in (0, 1]", name));
  }
  if (link_index_.contains(name)) {
    throw std::invalid_argument(fmt::format("topology link '{}' defined twice", name));
  }
  const auto id = static_cast<LinkId>(links_.size());
  links_.push_back({a, b, spec, name});
  links_.push_back({b, a, spec, name});
  out_links_[a].push_back(id);
  out_links_[b].push_back(id + 1);
  link_index_.emplace(std::move(name), id);
  return id;
}

NodeId Topology::node_by_name(std::string_view name) const {
  const auto it = node_index_.find(std::string(name));
  if (it == node_index_.end()) {
    throw std::invalid_argument(fmt::format("no node named '{}' in the topology", name));
  }
  return it->second;
}

HostId Topology::host_by_name(std::string_view name) const {
  const Node& n = nodes_[node_by_name(name)];
  if (!n.is_host) throw std::invalid_argument(fmt::format("node '{}' is a switch, not a host", name));
  return n.host;
}

std::vector<LinkId> Topology::links_by_name(std::string_view name) const {
  const auto it = link_index_.find(std::string(name));
  if (it == link_index_.end()) {
    throw std::invalid_argument(fmt::format("no link named '{}' in the topology", name));
  }
  return {it->second, it->second + 1};
}

HostId Topology::place(std::uint32_t pool_id, std::uint32_t instance, std::uint32_t rank,
                       std::uint32_t ranks_per_instance) const {
  if (pool_id >= pools.size() || pools[pool_id].empty()) {
    throw std::invalid_argument(fmt::format("no hosts in placement pool {}", pool_id));
  }
  const auto& pool = pools[pool_id];
  if (rank >= ranks_per_instance) throw std::invalid_argument("rank >= ranks_per_instance");
  const std::uint64_t index = static_cast<std::uint64_t>(instance) * ranks_per_instance + rank;
  return pool[index % pool.size()];
}

}  // namespace lynxsim::net
