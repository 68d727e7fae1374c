#pragma once
// A scenario: one experiment as typed values, read strictly from a JSON file (docs/scenario.md).
//
// load_scenario reads the file, applies `--set path=value` overrides to the JSON, then parses it.
// Every problem (JSON syntax with line and column, unknown keys, wrong types, bare numbers where a
// unit is needed, impossible values, unknown model, GPU or method names, bad overrides) is collected
// and thrown at once as a ScenarioError naming each JSON path.
//
// Presets: "model" names models/<name>.json, "gpu" names configs/gpus/<name>.json, a string
// "network" names configs/topologies/<name>.json; each may instead be given inline as an object.
// `resolved` is the scenario with every default filled in and every preset method expanded to its
// full field list; parsing `resolved` again gives the same Scenario (it is what a run writes as
// scenario.resolved.json).
//
// The ServingConfig is complete except make_network, which the application builds from `network`.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/net/network_spec.hpp"
#include "sim/scenario/data_paths.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/serving/serving_config.hpp"
#include "sim/quant/method_spec.hpp"

namespace lynxsim::scenario {

inline constexpr int kScenarioSchemaVersion = 1;

// Where presets live: models/, configs/gpus/ and configs/topologies/ below these folders.
// How precision is measured for the methods (wired to sim/accuracy by the application).
struct AccuracyOptions {
  bool enabled = true;
  std::optional<std::filesystem::path> kv_file;  // resolved against the scenario's folder
  // The synthetic-KV profile file (configs/kv_profiles/<accuracy.profile>.json); none: the
  // built-in llama-like profile (accuracy::default_kv_profile).
  std::optional<std::filesystem::path> profile;
  std::uint64_t seed = 1;                        // defaults to the scenario seed
};

struct Scenario {
  std::string name;
  std::string description;
  std::string source_file;
  std::uint64_t seed = 1;
  // The cache folder of the run (data_paths.hpp): --cache-dir, the scenario's "cache_dir" or the
  // default; accuracy results are kept in its accuracy/ folder.
  std::filesystem::path cache_dir;
  serving::ServingConfig serving;
  net::NetworkSpec network;
  // The network was written in the single-link shorthand (its rate is /network/bandwidth).
  bool network_shorthand = false;
  std::vector<quant::MethodSpec> methods;
  AccuracyOptions accuracy;
  nlohmann::json resolved;
};

struct ParseOptions {
  DataPaths data;
  // Relative paths inside the scenario (kv_file, trace CSVs) are resolved against this folder.
  std::filesystem::path base_dir = ".";
};

// A scenario or search name: 1-100 characters of [A-Za-z0-9._+-], starting with a letter or digit
// (it names a results folder).
bool is_safe_scenario_name(const std::string& name);

Scenario load_scenario(const std::filesystem::path& file, const std::vector<std::string>& overrides,
                       const DataPaths& data);
// The same for a scenario given as JSON text (the Python module's dicts): `source_name` names it in
// messages and relative paths inside it are resolved against the current folder.
Scenario load_scenario_text(const std::string& text, const std::string& source_name,
                            const std::vector<std::string>& overrides, const DataPaths& data);

// Parses an in-memory document; source_name prefixes error messages and becomes source_file.
Scenario parse_scenario(const nlohmann::json& document, std::string source_name,
                        const ParseOptions& options);

}  // namespace lynxsim::scenario
