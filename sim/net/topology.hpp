#pragma once
// A network topology as a graph of nodes (hosts and switches) joined by full-duplex links.
//
// Every full-duplex link is two independent directed links (LinkId 2i: a->b, 2i+1: b->a), each with
// the same line rate, propagation latency and efficiency; the capacity a flow solver sees is the
// goodput efficiency * rate in bytes per second. Hosts are the only endpoints of flows and never
// forward traffic of others; switches forward. HostId numbers hosts densely in creation order.
// The prefill and decode pools list the hosts where instances of each role are placed.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/net/network.hpp"

namespace lynxsim::net {

using NodeId = std::uint32_t;

struct LinkSpec {
  BitsPerSecond rate;
  Time latency;
  double efficiency = 1.0;
  BytesPerSecond goodput() const { return {rate.to_bytes().value * efficiency}; }
};

struct Node {
  std::string name;
  bool is_host = false;
  HostId host = 0;
};

struct DirectedLink {
  NodeId from = 0;
  NodeId to = 0;
  LinkSpec spec;
  std::string name;  // of the full-duplex link, shared by both directions
};

class Topology {
public:
  NodeId add_host(std::string name);
  NodeId add_switch(std::string name);
  // Adds a full-duplex link; returns the LinkId of its a->b direction (b->a is that + 1).
  // An empty name becomes "<a>-<b>". Throws std::invalid_argument for a non-positive rate, a
  // negative latency, an efficiency outside (0, 1] or a link from a node to itself.
  LinkId connect(NodeId a, NodeId b, const LinkSpec& spec, std::string name = {});

  std::size_t num_nodes() const { return nodes_.size(); }
  std::size_t num_hosts() const { return hosts_.size(); }
  std::size_t num_links() const { return links_.size(); }
  const Node& node(NodeId id) const { return nodes_.at(id); }
  const DirectedLink& link(LinkId id) const { return links_.at(id); }
  const std::vector<DirectedLink>& links() const { return links_; }
  const std::vector<LinkId>& out_links(NodeId id) const { return out_links_.at(id); }
  NodeId host_node(HostId host) const { return hosts_.at(host); }
  const std::string& host_name(HostId host) const { return nodes_.at(hosts_.at(host)).name; }

  // Throw std::invalid_argument naming the missing node, host or link.
  NodeId node_by_name(std::string_view name) const;
  HostId host_by_name(std::string_view name) const;
  // Both directions of the full-duplex link of that name.
  std::vector<LinkId> links_by_name(std::string_view name) const;

  // Placement pools (Network::place): the default builders make two, the first half of the hosts
  // and the second (both all hosts when there is one).
  std::vector<std::vector<HostId>> pools;
  // Host of rank `rank` of instance `instance` in pool `pool` (Network::place); throws
  // std::invalid_argument for a pool that does not exist or is empty.
  HostId place(std::uint32_t pool, std::uint32_t instance, std::uint32_t rank,
               std::uint32_t ranks_per_instance) const;

private:
  NodeId add_node(std::string name, bool is_host);

  std::vector<Node> nodes_;
  std::vector<NodeId> hosts_;
  std::vector<DirectedLink> links_;
  std::vector<std::vector<LinkId>> out_links_;
  std::unordered_map<std::string, NodeId> node_index_;
  std::unordered_map<std::string, LinkId> link_index_;
};

}  // namespace lynxsim::net
