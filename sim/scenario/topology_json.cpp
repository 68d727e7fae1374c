#include "sim/scenario/topology_json.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/scenario/net_table_reader.hpp"

namespace lynxsim::scenario {

using namespace net;
namespace {

using json = nlohmann::json;

std::string summary(const std::vector<ScenarioIssue>& issues) {
  std::string s = "invalid network configuration:";
  for (const auto& i : issues) s += fmt::format("\n  {}: {}", i.json_path, i.message);
  return s;
}

LinkSpec link_fields(ObjectReader& r, const FieldSection& F) {
  LinkSpec link;
  link.rate = r.bit_rate(F["rate"]).value_or(BitsPerSecond{1.0});
  link.latency = r.time(F["latency"]).value_or(Time::zero());
  link.efficiency = r.number(F["efficiency"]).value_or(1.0);
  return link;
}

// The link object under parent's key f, resolved into resolved[f.key]; nullopt when absent.
std::optional<LinkSpec> link_at(ObjectReader& parent, const Field& f, json& resolved) {
  const json* v = parent.get(f.key, f.required);
  if (v == nullptr) return std::nullopt;
  ObjectReader r(*v, parent.child(f.key), parent.issues());
  json res = json::object();
  r.resolve_into(res);
  const LinkSpec link = link_fields(r, field_section("link"));
  r.finish();
  keep_written(*v, res);
  resolved[std::string(f.key)] = std::move(res);
  return link;
}

LeafSpineTopology read_leaf_spine(ObjectReader& r, json& res) {
  const FieldSection& F = field_section("topology-leaf-spine");
  LeafSpineTopology t;
  t.leaves = r.count(F["leaves"]).value_or(1);
  t.hosts_per_leaf = r.count(F["hosts_per_leaf"]).value_or(1);
  t.spines = r.count(F["spines"]).value_or(1);
  t.host_link = link_at(r, F["host_link"], res).value_or(LinkSpec{});
  t.oversubscription = r.number(F["oversubscription"]);
  const bool has_uplink = r.get("uplink") != nullptr;
  if (t.oversubscription) {
    if (has_uplink) r.issues().add(r.child("uplink"), "give uplink or oversubscription, not both");
    if (r.get("uplink_latency") == nullptr) r.issues().add(r.child("uplink_latency"), "missing field");
    t.uplink.latency = r.time(F["uplink_latency"]).value_or(Time::zero());
    t.uplink.efficiency = r.number(F["uplink_efficiency"]).value_or(t.host_link.efficiency);
  } else if (has_uplink) {
    t.uplink = link_at(r, F["uplink"], res).value_or(LinkSpec{});
  } else {
    r.issues().add(r.child("uplink"), "missing field (give uplink or oversubscription)");
  }
  return t;
}

FatTreeTopology read_fat_tree(ObjectReader& r, json& res) {
  const FieldSection& F = field_section("topology-fat-tree");
  FatTreeTopology t{r.count(F["k"]).value_or(2), link_at(r, F["link"], res).value_or(LinkSpec{}), {}};
  if (t.k % 2 != 0) r.issues().add(r.child("k"), "must be even");
  t.host_link = link_at(r, F["host_link"], res);
  return t;
}

CrossDcTopology read_cross_dc(ObjectReader& r, json& res) {
  const FieldSection& F = field_section("topology-cross-dc");
  CrossDcTopology t;
  t.hosts_per_site = r.count(F["hosts_per_site"]).value_or(1);
  t.host_link = link_at(r, F["host_link"], res).value_or(LinkSpec{});
  const json* wan = r.get(F["wan"].key, true);
  if (wan == nullptr) return t;
  const FieldSection& W = field_section("wan");
  ObjectReader w(*wan, r.child("wan"), r.issues());
  json wres = json::object();
  w.resolve_into(wres);
  t.wan.rate = w.bit_rate(W["rate"]).value_or(BitsPerSecond{1.0});
  t.wan.latency = Time::from_ps(w.time(W["rtt"]).value_or(Time::zero()).ps() / 2);
  t.wan.efficiency = w.number(W["efficiency"]).value_or(1.0);
  w.finish();
  keep_written(*wan, wres);
  res["wan"] = std::move(wres);
  return t;
}

GraphTopology read_graph(ObjectReader& r, json& res) {
  const FieldSection& F = field_section("topology-graph");
  GraphTopology g;
  g.hosts = read_host_names(r, F["hosts"], res).value_or(std::vector<std::string>{});
  g.switches = read_names(r, F["switches"], res).value_or(std::vector<std::string>{});
  const json* links = r.get(F["links"].key, true);
  if (links == nullptr) return g;
  if (!links->is_array()) {
    r.issues().add(r.child("links"), fmt::format("expected an array of links, got {}", describe_value(*links)));
    return g;
  }
  const FieldSection& L = field_section("graph-link");
  res["links"] = json::array();
  for (std::size_t i = 0; i < links->size(); ++i) {
    ObjectReader lr((*links)[i], pointer_child(r.child("links"), std::to_string(i)), r.issues());
    json lres = json::object();
    lr.resolve_into(lres);
    GraphLink l;
    l.a = lr.string(L["a"]).value_or("");
    l.b = lr.string(L["b"]).value_or("");
    l.name = lr.string(L["name"]).value_or("");
    l.spec = link_fields(lr, L);
    lr.finish();
    keep_written((*links)[i], lres);
    res["links"].push_back(std::move(lres));
    if (lr.valid()) g.links.push_back(std::move(l));
  }
  return g;
}

TopologySpec read_kind(ObjectReader& r, const std::string& kind, json& res) {
  if (kind == "single-link") {
    return SingleLinkTopology{link_at(r, field_section("topology-single-link")["link"], res).value_or(LinkSpec{})};
  }
  if (kind == "leaf-spine") return read_leaf_spine(r, res);
  if (kind == "fat-tree") return read_fat_tree(r, res);
  if (kind == "cross-dc") return read_cross_dc(r, res);
  if (kind == "nvlink-island") {
    const FieldSection& F = field_section("topology-nvlink-island");
    const int gpus = r.count(F["gpus"]).value_or(2);
    return NvlinkIslandTopology{gpus, link_at(r, F["nvlink"], res).value_or(LinkSpec{})};
  }
  return read_graph(r, res);
}

constexpr std::array<std::string_view, 6> kKinds{"single-link", "leaf-spine", "fat-tree", "cross-dc",
                                                 "nvlink-island", "graph"};

TopologySpec read_topology(const json& j, const std::string& p, IssueList& issues, json& resolved) {
  const auto* kind = j.is_object() && j.contains("kind") ? &j.at("kind") : nullptr;
  if (kind == nullptr || !kind->is_string() ||
      std::find(kKinds.begin(), kKinds.end(), kind->get<std::string>()) == kKinds.end()) {
    issues.add(kind == nullptr ? p : pointer_child(p, "kind"),
               fmt::format("expected a topology object whose \"kind\" is one of {}", fmt::join(kKinds, ", ")));
    return SingleLinkTopology{};
  }
  const std::string name = kind->get<std::string>();
  ObjectReader r(j, p, issues);
  json res = json::object();
  r.resolve_into(res);
  (void)r.string(field_section("topology-" + name)["kind"]);
  TopologySpec spec = read_kind(r, name, res);
  r.finish();
  keep_written(j, res);
  resolved = std::move(res);
  return spec;
}

void check_size(const TopologySpec& spec, const std::string& path, const TopologyLimits& limits,
                IssueList& issues) {
  const TopologySize size = topology_size(spec);
  if (size.hosts > limits.max_hosts || size.links > limits.max_links) {
    issues.add(path, fmt::format("the topology has {} hosts and {} links, more than the {} hosts and {} "
                                 "links a network may have",
                                 size.hosts, size.links, limits.max_hosts, limits.max_links));
  }
}

}  // namespace

NetConfigError::NetConfigError(std::vector<ScenarioIssue> issues)
    : std::invalid_argument(summary(issues)), issues_(std::move(issues)) {}

TopologySpec parse_topology(const json& json_value, const std::string& json_path_prefix,
                            const TopologyLimits& limits, json* resolved) {
  IssueList issues;
  json res;
  TopologySpec spec = read_topology(json_value, json_path_prefix, issues, res);
  if (issues.empty()) check_size(spec, json_path_prefix, limits, issues);
  // A generated topology (leaf-spine, fat-tree, ...) is valid once its fields are; an explicit graph
  // is built to find duplicate names, unknown ends and self-loops.
  if (issues.empty() && std::holds_alternative<GraphTopology>(spec)) {
    try {
      build_topology(spec);
    } catch (const std::invalid_argument& e) {
      issues.add(json_path_prefix, e.what());
    }
  }
  if (!issues.empty()) throw NetConfigError(issues.items());
  if (resolved != nullptr) *resolved = std::move(res);
  return spec;
}

}  // namespace lynxsim::scenario
