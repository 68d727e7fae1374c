#pragma once
// Command-line overrides of a scenario document: "--set path=value".
//
// The path is dotted: object keys and array indices separated by '.', e.g. "network.bandwidth",
// "workload.requests.0.context", "methods". The value is parsed as JSON when it is valid strict JSON
// (strict_json.hpp: 8192, true, ["int8","lynx"], {"gpu":"h100-sxm"}) and taken as a string
// otherwise ("10Gbps").
// Missing objects along the path are created; an array index must exist (or equal the array's size,
// which appends). The overridden document is then parsed strictly like any file, so a key the schema
// does not know is reported as an unknown key, and the issue names the override that set it.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/scenario/scenario_error.hpp"

namespace lynxsim::scenario {

struct AppliedOverride {
  std::string text;     // "network.bandwidth=10Gbps"
  std::string pointer;  // "/network/bandwidth"
};

// Applies each override in order; problems (no '=', text that is not UTF-8, empty path, bad index,
// descending into a scalar) are recorded at the path "--set <text>".
std::vector<AppliedOverride> apply_overrides(nlohmann::json& document,
                                             const std::vector<std::string>& overrides,
                                             IssueList& issues);

// Appends "(set by --set ...)" to issues at or below an override's pointer.
std::vector<ScenarioIssue> annotate_overrides(const std::vector<ScenarioIssue>& issues,
                                              const std::vector<AppliedOverride>& applied);

}  // namespace lynxsim::scenario
