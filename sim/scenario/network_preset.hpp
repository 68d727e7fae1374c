#pragma once
// Named network presets (configs/topologies/<name>.json) become part of the scenario document before
// `--set` overrides apply, so an override can reach into a preset ("network.topology.host_link.rate=
// 100Gbps" on "leaf-spine-400g"). The expanded object is the preset's network object with
// "preset": <name> added (kept in the resolved scenario, ignored by the network reader), and every
// bandwidth-trace "csv" path rewritten from the presets' folder to the scenario's folder, so that the
// expanded document reads the same files.

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/scenario/scenario.hpp"

namespace lynxsim::scenario {

// The expanded network object of preset `name`, or nullopt with an issue recorded at `path`.
std::optional<nlohmann::json> load_network_preset(const std::string& name, const DataPaths& data,
                                                  const std::filesystem::path& scenario_dir,
                                                  const std::string& path, IssueList& issues);

// Replaces a string "network" of `document` with its expanded preset (other forms are left alone).
void expand_network_preset(nlohmann::json& document, const DataPaths& data,
                           const std::filesystem::path& scenario_dir, IssueList& issues);

}  // namespace lynxsim::scenario
