#pragma once
// Reading an explicit flow list (sim/net/flow_list.hpp) from JSON or CSV.
//
// JSON: {"flows": [{"src": "pod0.edge0.h0", "dst": "pod1.edge1.h1", "size": "64MB",
//                   "start": "1.5ms", "class": 0, "weight": 1, "label": "f0"}, ...]}
//   read strictly (strict_json.hpp, ObjectReader) by the key tables of flow_list_fields.cpp: size
//   and start carry their units as strings ("64MB", "1.5ms"); start defaults to "0s"; unknown keys
//   are errors naming their JSON path.
// CSV: a header naming the columns (any order): src, dst, size, start, and optionally class, weight,
//   label; then one flow per line. Cells of size and start carry units ("64MB", "1.5ms") unless the
//   header names the unit ("size_B", "start_s"), which lets them be bare numbers. Empty lines are
//   skipped; fields are not quoted (names and labels hold no commas).
// Errors name the file and the JSON path (ScenarioError, "flows.json: /flows/3/size: ...", every
// error of a JSON document together) or the line (std::invalid_argument, "flows.csv:4: ...").

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/net/flow_list.hpp"

namespace lynxsim::scenario {

using net::FlowListEntry;

// Reads FILE as JSON when its name ends in ".json", else as CSV.
std::vector<FlowListEntry> load_flow_list(const std::string& file);
std::vector<FlowListEntry> parse_flow_list_json(const nlohmann::json& document,
                                                const std::string& file);
std::vector<FlowListEntry> parse_flow_list_csv(std::string_view text, const std::string& file);

}  // namespace lynxsim::scenario
