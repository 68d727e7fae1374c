#pragma once
// Building a running network from its spec.
//
// make_network builds the topology, applies the placement pools of the spec, starts the bandwidth
// trace players and background senders (both are self-rescheduling simulator events that end with
// their trace or at their stop time, so Simulator::run() terminates), and returns the FlowNetwork.
// The network must outlive the simulator run that uses it.

#include <memory>

#include "sim/core/simulator.hpp"
#include "sim/net/flow_network.hpp"
#include "sim/net/network_spec.hpp"

namespace lynxsim::net {

std::unique_ptr<FlowNetwork> make_flow_network(Simulator& sim, const NetworkSpec& spec);
std::unique_ptr<Network> make_network(Simulator& sim, const NetworkSpec& spec);

// Schedules the rate changes of one trace on `network` (both directions of the named link).
void play_bandwidth_trace(FlowNetwork& network, const BandwidthTraceSpec& trace);
// Schedules one background sender; its random off periods use the stream "net.background.<index>".
void start_background(FlowNetwork& network, const BackgroundSpec& spec, std::size_t index);

}  // namespace lynxsim::net
