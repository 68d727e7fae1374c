#include "sim/net/reachability.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace lynxsim::net {
namespace {

struct UnionFind {
  std::vector<NodeId> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), NodeId{0}); }
  NodeId find(NodeId x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(NodeId a, NodeId b) { parent[find(a)] = find(b); }
};

bool intersects(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i == *j) return true;
    *i < *j ? ++i : ++j;
  }
  return false;
}

std::vector<HostId> distinct(std::span<const HostId> hosts) {
  std::vector<HostId> out(hosts.begin(), hosts.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

Reachability::Reachability(const Topology& t)
    : components_(t.num_hosts()), neighbours_(t.num_hosts()) {
  UnionFind uf(t.num_nodes());
  for (const DirectedLink& l : t.links()) {
    if (!t.node(l.from).is_host && !t.node(l.to).is_host) uf.join(l.from, l.to);
  }
  for (const DirectedLink& l : t.links()) {
    const Node& from = t.node(l.from);
    if (!from.is_host) continue;
    const Node& to = t.node(l.to);
    if (to.is_host) {
      neighbours_[from.host].push_back(to.host);
    } else {
      components_[from.host].push_back(uf.find(l.to));
    }
  }
  for (auto& c : components_) {
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
  }
}

bool Reachability::reaches(HostId a, HostId b) const {
  if (a == b || intersects(components_.at(a), components_.at(b))) return true;
  const auto& n = neighbours_.at(a);
  return std::find(n.begin(), n.end(), b) != n.end();
}

std::optional<std::pair<HostId, HostId>> Reachability::first_unreachable(
    std::span<const HostId> from_hosts, std::span<const HostId> to_hosts) const {
  const std::vector<HostId> from = distinct(from_hosts);
  const std::vector<HostId> to = distinct(to_hosts);
  std::map<std::uint32_t, std::size_t> touching;
  for (const auto* set : {&from, &to}) {
    for (const HostId h : *set) {
      for (const std::uint32_t c : components_[h]) ++touching[c];
    }
  }
  for (const auto& [component, hosts] : touching) {
    if (hosts == from.size() + to.size()) return std::nullopt;
  }
  return by_component(from, to);
}

std::optional<std::pair<HostId, HostId>> Reachability::by_component(
    const std::vector<HostId>& from, const std::vector<HostId>& to) const {
  const auto groups = [this](const std::vector<HostId>& hosts, std::vector<HostId>& linked) {
    std::map<std::vector<std::uint32_t>, HostId> first_of;
    for (const HostId h : hosts) {
      if (neighbours_[h].empty() && !components_[h].empty()) first_of.emplace(components_[h], h);
      else linked.push_back(h);
    }
    return first_of;
  };
  std::vector<HostId> linked_from;
  std::vector<HostId> linked_to;
  const auto from_groups = groups(from, linked_from);
  const auto to_groups = groups(to, linked_to);
  for (const auto& [a_components, a] : from_groups) {
    for (const auto& [b_components, b] : to_groups) {
      if (!intersects(a_components, b_components)) return std::pair{a, b};
    }
  }
  for (const HostId a : linked_from) {
    for (const HostId b : to) {
      if (!reaches(a, b)) return std::pair{a, b};
    }
  }
  for (const HostId b : linked_to) {
    for (const HostId a : from) {
      if (!reaches(a, b)) return std::pair{a, b};
    }
  }
  return std::nullopt;
}

}  // namespace lynxsim::net
