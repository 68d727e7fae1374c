#pragma once
// Building a running network from its spec.
//
// make_network builds the topology, applies the placement pools of the spec, starts the bandwidth
// trace players and background senders, and returns the FlowNetwork. Trace players and background
// senders reschedule themselves with weak events and send weak flows (core/simulator.hpp): they
// play while the run has other work and never keep Simulator::run() going, so a run with a
// repeating trace ends at its last strong event (a serving run: its last request's end). A
// background sender's next on period starts off_time after the later of its flow's arrival and the
// end of its planned on period, so the clock advances by at least one picosecond per period.
// The network must outlive the simulator run that uses it.

#include <memory>

#include "sim/core/simulator.hpp"
#include "sim/net/flow_network.hpp"
#include "sim/net/network_spec.hpp"

namespace lynxsim::net {

// The topology of the spec with its placement pools (pool_hosts replace the default pools).
Topology build_placed_topology(const NetworkSpec& spec);
std::unique_ptr<FlowNetwork> make_flow_network(Simulator& sim, const NetworkSpec& spec);
std::unique_ptr<Network> make_network(Simulator& sim, const NetworkSpec& spec);

// Schedules the rate changes of one trace on `network` (both directions of the named link).
void play_bandwidth_trace(FlowNetwork& network, const BandwidthTraceSpec& trace);
// Schedules one background sender; its random off periods use the stream "net.background.<index>".
// Throws std::invalid_argument for a sender from a host to itself.
void start_background(FlowNetwork& network, const BackgroundSpec& spec, std::size_t index);

}  // namespace lynxsim::net
