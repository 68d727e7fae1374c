#pragma once
// lynxsim's topology as an ns-3 network of point-to-point links, with every flow pinned to the
// route the fluid model gave it.
//
// Every node of the topology (host or switch) is an ns-3 node with an IPv4 stack and static
// routing; every full-duplex link is a point-to-point channel with the link's latency as its delay
// and goodput * wire bytes / payload bytes as its rate (packet_params.hpp), its two ends on a /30.
// Each port sends through a one-packet device queue fed by the transport's queue disc (RED with
// ECN marking for DCTCP, FIFO otherwise).
//
// ECMP: flow i gets its own destination address (11.0.0.0 + 4i + 1, on the receiver's port of its
// last hop) and source address (11.0.0.0 + 4i + 2, on the sender's port of its first hop; its /30
// holds the destination, so ns-3's source address selection picks it for the flow), and
// every node along lynxsim's route (FlowListResult::route, the result of lynxsim's per-flow ECMP
// hash) holds a host route to the destination address through that hop, every node along the
// reverse route one to the source address (ACKs). So ns-3 forwards each flow, hop for hop, on the
// path the fluid model chose: ECMP collisions are the same in both, and a difference in
// completion times comes from the packets alone.

#include <cstdint>
#include <vector>

#include <ns3/ipv4-address.h>
#include <ns3/node-container.h>

#include "sim/net/topology.hpp"
#include "tools/ns3_crosscheck/packet_params.hpp"

namespace lynxsim::ns3check {

struct PacketNetwork {
  ns3::NodeContainer nodes;  // index = lynxsim NodeId
  // Per lynxsim directed link: the interface index at its `from` node and the address of its
  // `to` end.
  std::vector<std::uint32_t> out_interface;
  std::vector<ns3::Ipv4Address> far_address;
  std::vector<double> line_rate_bps;  // ns-3 rate of each directed link
};

PacketNetwork build_packet_network(const net::Topology& topology, const PacketParams& params,
                                   std::uint32_t lossless_packets);

ns3::Ipv4Address flow_destination(std::size_t flow);
ns3::Ipv4Address flow_source(std::size_t flow);

// Adds flow `flow`'s addresses and host routes along `route` (directed LinkIds, source first).
void pin_flow_route(PacketNetwork& network, const net::Topology& topology, std::size_t flow,
                    const std::vector<net::LinkId>& route);

}  // namespace lynxsim::ns3check
