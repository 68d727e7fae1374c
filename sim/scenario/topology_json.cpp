#include "sim/scenario/topology_json.hpp"

#include <fmt/format.h>

#include "sim/scenario/net_json_reader.hpp"

namespace lynxsim::scenario {

using namespace net;
namespace {

using json = nlohmann::json;

std::string summary(const std::vector<ScenarioIssue>& issues) {
  std::string s = "invalid network configuration:";
  for (const auto& i : issues) s += fmt::format("\n  {}: {}", i.json_path, i.message);
  return s;
}

LinkSpec read_link(JsonReader& r, const json& j, const std::string& path,
                   std::initializer_list<std::string_view> extra = {}) {
  LinkSpec link;
  std::vector<std::string_view> keys{"rate", "latency", "efficiency"};
  keys.insert(keys.end(), extra.begin(), extra.end());
  if (!j.is_object()) {
    r.error(path, "expected a link object {\"rate\", \"latency\", \"efficiency\"}");
    return link;
  }
  for (const auto& [key, value] : j.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) r.error(child(path, key), "unknown key");
  }
  link.rate = r.rate(j, path, "rate", true).value_or(BitsPerSecond{1.0});
  link.latency = r.time(j, path, "latency", true).value_or(Time::zero());
  link.efficiency = r.number(j, path, "efficiency", false).value_or(1.0);
  if (!(link.efficiency > 0.0 && link.efficiency <= 1.0)) {
    r.error(child(path, "efficiency"), "must be in (0, 1]");
    link.efficiency = 1.0;
  }
  return link;
}

LinkSpec link_at(JsonReader& r, const json& j, const std::string& path, const char* key) {
  if (!j.contains(key)) {
    r.error(child(path, key), "missing required key");
    return {};
  }
  return read_link(r, j.at(key), child(path, key));
}

LeafSpineTopology read_leaf_spine(JsonReader& r, const json& j, const std::string& p) {
  r.object(j, p, {"kind", "leaves", "hosts_per_leaf", "spines", "host_link", "uplink",
                  "oversubscription", "uplink_latency", "uplink_efficiency"});
  LeafSpineTopology t;
  t.leaves = r.integer(j, p, "leaves", true, 1).value_or(1);
  t.hosts_per_leaf = r.integer(j, p, "hosts_per_leaf", true, 1).value_or(1);
  t.spines = r.integer(j, p, "spines", true, 1).value_or(1);
  t.host_link = link_at(r, j, p, "host_link");
  t.oversubscription = r.number(j, p, "oversubscription", false);
  if (t.oversubscription) {
    if (j.contains("uplink")) r.error(child(p, "uplink"), "give uplink or oversubscription, not both");
    if (!(*t.oversubscription > 0.0)) r.error(child(p, "oversubscription"), "must be positive");
    t.uplink.latency = r.time(j, p, "uplink_latency", true).value_or(Time::zero());
    t.uplink.efficiency = r.number(j, p, "uplink_efficiency", false).value_or(t.host_link.efficiency);
  } else {
    t.uplink = link_at(r, j, p, "uplink");
  }
  return t;
}

GraphTopology read_graph(JsonReader& r, const json& j, const std::string& p) {
  r.object(j, p, {"kind", "hosts", "switches", "links"});
  GraphTopology g;
  g.hosts = r.strings(j, p, "hosts", true).value_or(std::vector<std::string>{});
  g.switches = r.strings(j, p, "switches", false).value_or(std::vector<std::string>{});
  if (!j.contains("links") || !j.at("links").is_array()) {
    r.error(child(p, "links"), "expected an array of links");
    return g;
  }
  const auto& links = j.at("links");
  for (std::size_t i = 0; i < links.size(); ++i) {
    const std::string lp = child(child(p, "links"), std::to_string(i));
    GraphLink l;
    l.spec = read_link(r, links[i], lp, {"a", "b", "name"});
    if (!links[i].is_object()) continue;
    l.a = r.string(links[i], lp, "a", true).value_or("");
    l.b = r.string(links[i], lp, "b", true).value_or("");
    l.name = r.string(links[i], lp, "name", false).value_or("");
    g.links.push_back(std::move(l));
  }
  return g;
}

TopologySpec read_topology(JsonReader& r, const json& j, const std::string& p) {
  if (!j.is_object()) {
    r.error(p, "expected a topology object with a \"kind\"");
    return SingleLinkTopology{};
  }
  const std::string kind = r.string(j, p, "kind", true).value_or("");
  if (kind == "single-link") {
    r.object(j, p, {"kind", "link"});
    return SingleLinkTopology{link_at(r, j, p, "link")};
  }
  if (kind == "leaf-spine") return read_leaf_spine(r, j, p);
  if (kind == "fat-tree") {
    r.object(j, p, {"kind", "k", "link", "host_link"});
    FatTreeTopology t{r.integer(j, p, "k", true, 2).value_or(2), link_at(r, j, p, "link"), {}};
    if (t.k % 2 != 0) r.error(child(p, "k"), "must be even");
    if (j.contains("host_link")) t.host_link = link_at(r, j, p, "host_link");
    return t;
  }
  if (kind == "cross-dc") {
    r.object(j, p, {"kind", "hosts_per_site", "host_link", "wan"});
    CrossDcTopology t;
    t.hosts_per_site = r.integer(j, p, "hosts_per_site", true, 1).value_or(1);
    t.host_link = link_at(r, j, p, "host_link");
    const json& wan = j.contains("wan") ? j.at("wan") : json::object();
    const std::string wp = child(p, "wan");
    if (r.object(wan, wp, {"rate", "rtt", "efficiency"})) {
      t.wan.rate = r.rate(wan, wp, "rate", true).value_or(BitsPerSecond{1.0});
      const Time rtt = r.time(wan, wp, "rtt", true).value_or(Time::zero());
      t.wan.latency = Time::from_ps(rtt.ps() / 2);
      t.wan.efficiency = r.number(wan, wp, "efficiency", false).value_or(1.0);
    }
    return t;
  }
  if (kind == "nvlink-island") {
    r.object(j, p, {"kind", "gpus", "nvlink"});
    return NvlinkIslandTopology{r.integer(j, p, "gpus", true, 2).value_or(2),
                                link_at(r, j, p, "nvlink")};
  }
  if (kind == "graph") return read_graph(r, j, p);
  if (!kind.empty()) {
    r.error(child(p, "kind"), "expected one of single-link, leaf-spine, fat-tree, cross-dc, "
                              "nvlink-island, graph");
  }
  return SingleLinkTopology{};
}

void check_size(const TopologySpec& spec, const std::string& path, const TopologyLimits& limits,
                std::vector<ScenarioIssue>& issues) {
  const TopologySize size = topology_size(spec);
  if (size.hosts > limits.max_hosts || size.links > limits.max_links) {
    issues.push_back({path, fmt::format("the topology has {} hosts and {} links, more than the {} "
                                        "hosts and {} links a network may have",
                                        size.hosts, size.links, limits.max_hosts,
                                        limits.max_links)});
  }
}

}  // namespace

NetConfigError::NetConfigError(std::vector<ScenarioIssue> issues)
    : std::invalid_argument(summary(issues)), issues_(std::move(issues)) {}

TopologySpec parse_topology(const json& json_value, const std::string& json_path_prefix,
                            const TopologyLimits& limits) {
  std::vector<ScenarioIssue> issues;
  JsonReader r(issues);
  TopologySpec spec = read_topology(r, json_value, json_path_prefix);
  if (issues.empty()) check_size(spec, json_path_prefix, limits, issues);
  if (issues.empty()) {
    try {
      build_topology(spec);
    } catch (const std::invalid_argument& e) {
      issues.push_back({json_path_prefix, e.what()});
    }
  }
  if (!issues.empty()) throw NetConfigError(std::move(issues));
  return spec;
}

}  // namespace lynxsim::scenario
