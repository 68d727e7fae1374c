// The "network" section, in one of three forms:
//   "name"                      configs/topologies/<name>.json, a network object as below
//                               (network_preset.hpp; load_scenario expands it before overrides)
//   {"topology": {"kind": ...}, "setup_time": ..., ...}
//                               a network object as parse_network (topology_json.hpp) reads it
//   {"topology": "single-link", "bandwidth": "25Gbps", "latency": "10us", "setup": "1ms",
//    "efficiency": 0.85, "scheduling": {...}}
//                               shorthand for one link (table network-shorthand)
// The shorthand is rewritten into the network-object form; the resolved form is parse_network's
// (every key of every object, defaults included), with the values the user wrote kept as written,
// so a bandwidth is parsed once and never reprinted.

#include <filesystem>
#include <fmt/format.h>
#include <sstream>

#include "sim/scenario/input_file.hpp"
#include "sim/core/unit_parse.hpp"
#include "sim/scenario/topology_json.hpp"
#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/net_table_reader.hpp"
#include "sim/scenario/network_preset.hpp"
#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/strict_json.hpp"

namespace lynxsim::scenario {
namespace fs = std::filesystem;
namespace {

std::optional<nlohmann::json> expand_shorthand(ObjectReader& r) {
  const FieldSection& F = field_section("network-shorthand");
  const std::size_t issues_before = r.issues().size();
  const auto kind = r.string(F["topology"]);
  const auto rate = r.bit_rate(F["bandwidth"]);
  const auto latency = r.time(F["latency"]);
  const auto setup = r.time(F["setup"]);
  const auto efficiency = r.number(F["efficiency"]);
  const nlohmann::json* scheduling = r.get(F["scheduling"].key);
  r.finish();
  if (!kind || !rate || !latency || !setup || !efficiency || r.issues().size() != issues_before) {
    return std::nullopt;
  }
  const nlohmann::json link = {{"rate", *r.get("bandwidth")},
                               {"latency", r.get("latency") ? *r.get("latency") : nlohmann::json(time_text(*latency))},
                               {"efficiency", *efficiency}};
  nlohmann::json full{{"topology", {{"kind", "single-link"}, {"link", link}}},
                      {"setup_time", r.get("setup") ? *r.get("setup") : nlohmann::json(time_text(*setup))}};
  if (scheduling) full["scheduling"] = *scheduling;
  return full;
}

}  // namespace

net::NetworkSpec read_network(const nlohmann::json& value, const std::string& path,
                              SectionContext& ctx, nlohmann::json& resolved) {
  std::optional<nlohmann::json> full;
  const std::string base_dir = ctx.options.base_dir.string();
  if (value.is_string()) {
    full = load_network_preset(value.get<std::string>(), ctx.options.data, ctx.options.base_dir,
                               path, ctx.issues);
  } else if (value.is_object() && value.contains("topology") && value.at("topology").is_string()) {
    ObjectReader r(value, path, ctx.issues);
    full = expand_shorthand(r);
  } else {
    full = value;
  }
  if (!full) return {};
  std::optional<nlohmann::json> preset;
  if (full->is_object() && full->contains("preset")) {
    preset = full->at("preset");
    full->erase("preset");
    if (!preset->is_string()) {
      ctx.issues.add(pointer_child(path, "preset"),
                     fmt::format("expected the name of a network preset, got {}", describe_value(*preset)));
    }
  }
  try {
    net::NetworkSpec spec = parse_network(*full, path, base_dir, {kMaxHosts, kMaxLinks}, &resolved);
    if (preset) resolved["preset"] = *preset;
    std::vector<double> weights;
    const net::Scheduler scheduler(spec.scheduling);
    for (int q = 0; q < spec.scheduling.classes; ++q) weights.push_back(scheduler.queue_weight(q));
    resolved["scheduling"]["weights"] = weights;
    return spec;
  } catch (const NetConfigError& e) {
    for (const auto& issue : e.issues()) ctx.issues.add(issue.json_path, issue.message);
  } catch (const std::invalid_argument& e) {
    ctx.issues.add(path, e.what());
  }
  return {};
}

}  // namespace lynxsim::scenario
