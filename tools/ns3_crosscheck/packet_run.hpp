#pragma once
// Runs an explicit flow list (sim/net/flow_list.hpp) in ns-3 on the network of
// packet_network.hpp, each flow on the route the fluid model gave it, with the transport of
// packet_params.hpp.
//
// Flow i opens at its start + the network's setup time: TCP (DCTCP or NewReno) as a bulk sender
// of exactly its size to a packet sink; UDP as full datagrams paced at the line rate of the
// sender's first hop (the last one shorter) to a packet sink. Its finish is the arrival of its
// last payload byte at the sink. The run stops when every flow has finished or at `horizon_s`
// of simulated time; a flow unfinished by then has finish -1.

#include <vector>

#include "sim/core/time.hpp"
#include "sim/net/flow_list.hpp"
#include "sim/net/topology.hpp"
#include "tools/ns3_crosscheck/packet_params.hpp"

namespace lynxsim::ns3check {

struct PacketRunResult {
  std::vector<double> finish_s;  // per flow, simulated seconds; -1 = did not finish
  double cpu_s = 0.0;  // processor time of the ns-3 run
};

PacketRunResult run_packet_flows(const net::Topology& topology,
                                 const std::vector<net::FlowListEntry>& flows,
                                 const std::vector<std::vector<net::LinkId>>& routes,
                                 Time setup_time, const PacketParams& params, double horizon_s);

}  // namespace lynxsim::ns3check
