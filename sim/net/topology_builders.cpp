#include <fmt/format.h>
#include <stdexcept>

#include "sim/net/network_spec.hpp"

namespace lynxsim::net {
namespace {

void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(what);
}

void split_pools(Topology& t) {
  const auto n = static_cast<HostId>(t.num_hosts());
  const HostId half = n > 1 ? n / 2 : n;
  t.pools.assign(2, {});
  for (HostId h = 0; h < n; ++h) t.pools[h < half ? 0 : 1].push_back(h);
  if (t.pools[1].empty()) t.pools[1] = t.pools[0];
}

Topology build(const SingleLinkTopology& s) {
  Topology t;
  const NodeId a = t.add_host("prefill");
  const NodeId b = t.add_host("decode");
  t.connect(a, b, s.link, "link");
  split_pools(t);
  return t;
}

// The spine links: `uplink`, or with an oversubscription the rate that gives a leaf's uplinks
// hosts_per_leaf x host rate / oversubscription in all.
LinkSpec leaf_spine_uplink(const LeafSpineTopology& s) {
  LinkSpec up = s.uplink;
  if (s.oversubscription) {
    require(*s.oversubscription > 0.0, "leaf-spine: oversubscription must be positive");
    up.rate = {s.hosts_per_leaf * s.host_link.rate.value / (s.spines * *s.oversubscription)};
  }
  return up;
}

Topology build(const LeafSpineTopology& s) {
  require(s.leaves >= 1 && s.hosts_per_leaf >= 1 && s.spines >= 1,
          "leaf-spine: leaves, hosts_per_leaf and spines must be at least 1");
  const LinkSpec up = leaf_spine_uplink(s);
  Topology t;
  std::vector<NodeId> spines;
  for (int i = 0; i < s.spines; ++i) spines.push_back(t.add_switch(fmt::format("spine{}", i)));
  for (int l = 0; l < s.leaves; ++l) {
    const NodeId leaf = t.add_switch(fmt::format("leaf{}", l));
    for (int h = 0; h < s.hosts_per_leaf; ++h) {
      t.connect(t.add_host(fmt::format("leaf{}.h{}", l, h)), leaf, s.host_link);
    }
    for (const NodeId sp : spines) t.connect(leaf, sp, up);
  }
  split_pools(t);
  return t;
}

Topology build(const FatTreeTopology& s) {
  require(s.k >= 2 && s.k % 2 == 0, "fat-tree: k must be an even number >= 2");
  const int half = s.k / 2;
  Topology t;
  std::vector<NodeId> cores;
  for (int c = 0; c < half * half; ++c) cores.push_back(t.add_switch(fmt::format("core{}", c)));
  for (int p = 0; p < s.k; ++p) {
    std::vector<NodeId> aggs;
    for (int a = 0; a < half; ++a) {
      aggs.push_back(t.add_switch(fmt::format("pod{}.agg{}", p, a)));
      for (int c = 0; c < half; ++c) t.connect(aggs.back(), cores[a * half + c], s.link);
    }
    for (int e = 0; e < half; ++e) {
      const NodeId edge = t.add_switch(fmt::format("pod{}.edge{}", p, e));
      for (const NodeId agg : aggs) t.connect(edge, agg, s.link);
      for (int h = 0; h < half; ++h) {
        t.connect(t.add_host(fmt::format("pod{}.edge{}.h{}", p, e, h)), edge,
                  s.host_link.value_or(s.link));
      }
    }
  }
  split_pools(t);
  return t;
}

Topology build(const CrossDcTopology& s) {
  require(s.hosts_per_site >= 1, "cross-dc: hosts_per_site must be at least 1");
  Topology t;
  const NodeId sw_a = t.add_switch("a.switch");
  const NodeId sw_b = t.add_switch("b.switch");
  for (const auto& [site, sw] : {std::pair{"a", sw_a}, std::pair{"b", sw_b}}) {
    for (int h = 0; h < s.hosts_per_site; ++h) {
      t.connect(t.add_host(fmt::format("{}.h{}", site, h)), sw, s.host_link);
    }
  }
  t.connect(sw_a, sw_b, s.wan, "wan");
  split_pools(t);
  return t;
}

Topology build(const NvlinkIslandTopology& s) {
  require(s.gpus >= 2, "nvlink-island: gpus must be at least 2");
  Topology t;
  const NodeId sw = t.add_switch("nvswitch");
  for (int g = 0; g < s.gpus; ++g) t.connect(t.add_host(fmt::format("gpu{}", g)), sw, s.nvlink);
  split_pools(t);
  return t;
}

Topology build(const GraphTopology& s) {
  Topology t;
  for (const auto& h : s.hosts) t.add_host(h);
  for (const auto& sw : s.switches) t.add_switch(sw);
  for (const auto& l : s.links) {
    t.connect(t.node_by_name(l.a), t.node_by_name(l.b), l.spec, l.name);
  }
  split_pools(t);
  return t;
}

}  // namespace

Topology build_topology(const TopologySpec& spec) {
  return std::visit([](const auto& s) { return build(s); }, spec);
}

std::vector<LinkSpec> link_specs(const TopologySpec& spec) {
  struct Specs {
    std::vector<LinkSpec> operator()(const SingleLinkTopology& s) const { return {s.link}; }
    std::vector<LinkSpec> operator()(const LeafSpineTopology& s) const {
      return {s.host_link, leaf_spine_uplink(s)};
    }
    std::vector<LinkSpec> operator()(const FatTreeTopology& s) const {
      return {s.link, s.host_link.value_or(s.link)};
    }
    std::vector<LinkSpec> operator()(const CrossDcTopology& s) const { return {s.host_link, s.wan}; }
    std::vector<LinkSpec> operator()(const NvlinkIslandTopology& s) const { return {s.nvlink}; }
    std::vector<LinkSpec> operator()(const GraphTopology& s) const {
      std::vector<LinkSpec> out;
      for (const GraphLink& l : s.links) out.push_back(l.spec);
      return out;
    }
  };
  return std::visit(Specs{}, spec);
}

}  // namespace lynxsim::net
