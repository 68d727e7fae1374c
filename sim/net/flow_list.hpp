#pragma once
// An explicit list of flows, read from JSON or CSV, for running the flow network alone (`lynxsim
// flows`) and comparing its completion times with other flow-level or packet-level simulators.
//
// Each flow: source host, destination host (topology host names), size in bytes, start time (when
// the flow is handed to the network; its setup time, if the network has one, starts then),
// priority class (integer >= 0, lower = higher priority; default 0), weight inside its class
// (number > 0; default 1) and an optional label.
//
// JSON: {"flows": [{"src": "pod0.edge0.h0", "dst": "pod1.edge1.h1", "size": "64MB",
//                   "start": "1.5ms", "class": 0, "weight": 1, "label": "f0"}, ...]}
//   size and start carry their units as strings ("64MB", "1.5ms"); start defaults to "0s"; unknown
//   keys are errors naming their JSON path.
// CSV: a header naming the columns (any order): src, dst, size, start, and optionally class, weight,
//   label; then one flow per line. Cells of size and start carry units ("64MB", "1.5ms") unless the
//   header names the unit ("size_B", "start_s"), which lets them be bare numbers. Empty lines are
//   skipped; fields are not quoted (names and labels hold no commas).
// Errors throw std::invalid_argument naming the file and the JSON path ("flows.json: /flows/3/size:
// ...") or line ("flows.csv:4: ..."); every error of a JSON document is reported together.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace lynxsim::net {

struct FlowListEntry {
  std::string src;
  std::string dst;
  Bytes size;
  Time start = Time::zero();
  int priority_class = 0;
  double weight = 1.0;
  std::string label;
  std::string where;  // "flows.json: /flows/3" or "flows.csv:4", for messages about this flow
};

// Reads FILE as JSON when its name ends in ".json", else as CSV.
std::vector<FlowListEntry> load_flow_list(const std::string& file);
std::vector<FlowListEntry> parse_flow_list_json(const nlohmann::json& document,
                                                const std::string& file);
std::vector<FlowListEntry> parse_flow_list_csv(std::string_view text, const std::string& file);

}  // namespace lynxsim::net
