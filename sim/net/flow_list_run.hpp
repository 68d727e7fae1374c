#pragma once
// Running an explicit flow list (flow_list.hpp) through the flow network alone.
//
// Every flow is handed to the network at its start time (FlowNetwork::start_flow: the network's
// setup time, then bandwidth sharing, then the path latency, see network.hpp), with its class and
// weight; the network's traces and background senders run as configured. The simulation runs until
// every flow has arrived. Results are in list order: the flow's record (started_at = its start,
// finished_at = the arrival of its last byte) and the directed links of its ECMP route (ECMP keys
// depend on the seed and the order of starts, so the route is reported for other simulators to
// follow).

#include <cstdint>
#include <string>
#include <vector>

#include "sim/net/flow_list.hpp"
#include "sim/net/network.hpp"
#include "sim/net/network_spec.hpp"

namespace lynxsim::net {

struct FlowListResult {
  FlowRecord record;
  std::vector<LinkId> route;
};

// Throws std::invalid_argument naming the flow's place (FlowListEntry::where, else `source`) for an
// unknown host or a flow from a host to itself.
std::vector<FlowListResult> run_flow_list(const NetworkSpec& spec,
                                          const std::vector<FlowListEntry>& flows,
                                          std::uint64_t seed, const std::string& source);

}  // namespace lynxsim::net
