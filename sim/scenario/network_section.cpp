// The "network" section, in one of three forms:
//   "name"                      configs/topologies/<name>.json, a network object as below
//                               (network_preset.hpp; load_scenario expands it before overrides)
//   {"topology": {"kind": ...}, "setup_time": ..., ...}
//                               a network object as parse_network (topology_json.hpp) reads it
//   {"topology": "single-link", "bandwidth": "25Gbps", "latency": "10us", "setup": "1ms",
//    "efficiency": 0.85, "scheduling": {...}}
//                               shorthand for one link; latency and setup default to "0s",
//                               efficiency to 1
// The shorthand is rewritten into the network-object form, which is also the resolved form; the
// bandwidth keeps the text the user wrote, so it is parsed (by parse_network) and never reprinted.

#include <filesystem>
#include <fmt/format.h>
#include <sstream>

#include "sim/core/input_file.hpp"
#include "sim/core/unit_parse.hpp"
#include "sim/scenario/topology_json.hpp"
#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/network_preset.hpp"
#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/strict_json.hpp"

namespace lynxsim::scenario {
namespace fs = std::filesystem;
namespace {

std::optional<nlohmann::json> expand_shorthand(ObjectReader& r) {
  const auto kind = r.string("topology", true);
  const auto rate = r.bit_rate("bandwidth", true);
  const auto latency = r.time("latency", false);
  const auto setup = r.time("setup", false);
  const auto efficiency = r.number("efficiency", 1e-9, 1.0);
  const nlohmann::json* scheduling = r.get("scheduling");
  const bool bad = (r.get("latency") && !latency) || (r.get("setup") && !setup) ||
                   (r.get("efficiency") && !efficiency);
  r.finish();
  if (kind && *kind != "single-link") {
    r.issues().add(r.child("topology"),
                   fmt::format("the shorthand form knows only \"single-link\", got \"{}\"; give "
                               "other topologies as {{\"kind\": ...}} objects", *kind));
    return std::nullopt;
  }
  if (!kind || !rate || bad) return std::nullopt;
  const nlohmann::json link = {{"rate", *r.get("bandwidth")},
                               {"latency", time_text(latency.value_or(Time::zero()))},
                               {"efficiency", efficiency.value_or(1.0)}};
  nlohmann::json full{{"topology", {{"kind", "single-link"}, {"link", link}}},
                      {"setup_time", time_text(setup.value_or(Time::zero()))}};
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
    net::NetworkSpec spec = parse_network(*full, path, base_dir, {kMaxHosts, kMaxLinks});
    resolved = *full;
    if (preset) resolved["preset"] = *preset;
    if (!resolved.contains("setup_time")) resolved["setup_time"] = time_text(spec.setup_time);
    const auto& sched = spec.scheduling;
    std::vector<double> weights;
    const net::Scheduler scheduler(sched);
    for (int q = 0; q < sched.classes; ++q) weights.push_back(scheduler.queue_weight(q));
    resolved["scheduling"] = {{"policy", std::string(net::to_string(sched.policy))},
                              {"classes", sched.classes},
                              {"weights", weights},
                              {"max_wait", time_text(sched.max_wait)}};
    return spec;
  } catch (const NetConfigError& e) {
    for (const auto& issue : e.issues()) ctx.issues.add(issue.json_path, issue.message);
  } catch (const std::invalid_argument& e) {
    ctx.issues.add(path, e.what());
  }
  return {};
}

}  // namespace lynxsim::scenario
