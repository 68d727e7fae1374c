#pragma once
// One flow of an explicit flow list, for running the flow network alone (`lynxsim flows`) and
// comparing its completion times with other flow-level or packet-level simulators; the config
// layer reads lists from JSON or CSV files (sim/scenario/flow_list_file.hpp).
//
// A flow: source host, destination host (topology host names), size in bytes, start time (when
// the flow is handed to the network; its setup time, if the network has one, starts then),
// priority class (integer >= 0, lower = higher priority; default 0), weight inside its class
// (number > 0; default 1) and an optional label.

#include <string>

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

}  // namespace lynxsim::net
