#include "tools/ns3_crosscheck/packet_network.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <ns3/data-rate.h>
#include <ns3/internet-stack-helper.h>
#include <ns3/ipv4-static-routing-helper.h>
#include <ns3/ipv4-static-routing.h>
#include <ns3/ipv4.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/traffic-control-helper.h>

namespace lynxsim::ns3check {
namespace {

constexpr std::uint32_t kLinkBase = 0x0A000000;  // 10.0.0.0, a /30 per full-duplex link
constexpr std::uint32_t kFlowBase = 0x0B000000;  // 11.0.0.0, a /30 per flow

ns3::TrafficControlHelper queue_disc(const PacketParams& params, double line_rate_bps,
                                     std::uint32_t lossless_packets) {
  ns3::TrafficControlHelper tc;
  const std::string fifo_size = std::to_string(params.buffer_packets) + "p";
  if (params.transport == Transport::Dctcp) {
    const double k = std::max(1.0, params.dctcp_k_at_10g * line_rate_bps / 10e9);
    tc.SetRootQueueDisc(
        "ns3::RedQueueDisc", "UseEcn", ns3::BooleanValue(true), "UseHardDrop",
        ns3::BooleanValue(false), "MeanPktSize", ns3::UintegerValue(kIpMtu), "QW",
        ns3::DoubleValue(1.0), "MinTh", ns3::DoubleValue(k), "MaxTh", ns3::DoubleValue(k),
        "MaxSize", ns3::QueueSizeValue(ns3::QueueSize(fifo_size)), "LinkBandwidth",
        ns3::DataRateValue(ns3::DataRate(static_cast<std::uint64_t>(line_rate_bps))));
  } else {
    const std::uint32_t size =
        params.transport == Transport::Udp ? lossless_packets : params.buffer_packets;
    tc.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize",
                        ns3::QueueSizeValue(ns3::QueueSize(std::to_string(size) + "p")));
  }
  return tc;
}

std::uint32_t add_interface(ns3::Ptr<ns3::Node> node, ns3::Ptr<ns3::NetDevice> device,
                            ns3::Ipv4Address address) {
  auto ipv4 = node->GetObject<ns3::Ipv4>();
  const auto index = static_cast<std::uint32_t>(ipv4->AddInterface(device));
  ipv4->AddAddress(index, ns3::Ipv4InterfaceAddress(address, ns3::Ipv4Mask("/30")));
  ipv4->SetUp(index);
  return index;
}

ns3::Ptr<ns3::Ipv4StaticRouting> static_routing(ns3::Ptr<ns3::Node> node) {
  ns3::Ipv4StaticRoutingHelper helper;
  return helper.GetStaticRouting(node->GetObject<ns3::Ipv4>());
}

void connect_link(PacketNetwork& pn, const net::Topology& topology, net::LinkId forward,
                  const PacketParams& params, std::uint32_t lossless_packets) {
  const net::DirectedLink& link = topology.link(forward);
  const double rate = link.spec.goodput().value * 8.0 / wire_efficiency(params.transport);
  ns3::PointToPointHelper p2p;
  p2p.SetDeviceAttribute(
      "DataRate",
      ns3::DataRateValue(ns3::DataRate(static_cast<std::uint64_t>(std::llround(rate)))));
  p2p.SetChannelAttribute("Delay", ns3::TimeValue(ns3::PicoSeconds(link.spec.latency.ps())));
  p2p.SetQueue("ns3::DropTailQueue", "MaxSize", ns3::QueueSizeValue(ns3::QueueSize("1p")));
  auto devices = p2p.Install(pn.nodes.Get(link.from), pn.nodes.Get(link.to));
  queue_disc(params, rate, lossless_packets).Install(devices);
  const std::uint32_t subnet = kLinkBase + 4 * (forward / 2);
  const ns3::Ipv4Address a(subnet + 1);
  const ns3::Ipv4Address b(subnet + 2);
  pn.out_interface[forward] = add_interface(pn.nodes.Get(link.from), devices.Get(0), a);
  pn.out_interface[forward + 1] = add_interface(pn.nodes.Get(link.to), devices.Get(1), b);
  pn.far_address[forward] = b;
  pn.far_address[forward + 1] = a;
  pn.line_rate_bps[forward] = rate;
  pn.line_rate_bps[forward + 1] = rate;
}

void add_flow_address(ns3::Ptr<ns3::Node> node, std::uint32_t interface, ns3::Ipv4Address a,
                      const char* mask) {
  node->GetObject<ns3::Ipv4>()->AddAddress(interface,
                                           ns3::Ipv4InterfaceAddress(a, ns3::Ipv4Mask(mask)));
}

}  // namespace

ns3::Ipv4Address flow_destination(std::size_t flow) {
  return ns3::Ipv4Address(kFlowBase + 4 * static_cast<std::uint32_t>(flow) + 1);
}

ns3::Ipv4Address flow_source(std::size_t flow) {
  return ns3::Ipv4Address(kFlowBase + 4 * static_cast<std::uint32_t>(flow) + 2);
}

PacketNetwork build_packet_network(const net::Topology& topology, const PacketParams& params,
                                   std::uint32_t lossless_packets) {
  PacketNetwork pn;
  pn.nodes.Create(static_cast<std::uint32_t>(topology.num_nodes()));
  ns3::InternetStackHelper stack;
  ns3::Ipv4StaticRoutingHelper routing;
  stack.SetRoutingHelper(routing);
  stack.Install(pn.nodes);
  pn.out_interface.assign(topology.num_links(), 0);
  pn.far_address.assign(topology.num_links(), ns3::Ipv4Address());
  pn.line_rate_bps.assign(topology.num_links(), 0.0);
  for (net::LinkId l = 0; l < topology.num_links(); l += 2) {
    connect_link(pn, topology, l, params, lossless_packets);
  }
  return pn;
}

void pin_flow_route(PacketNetwork& pn, const net::Topology& topology, std::size_t flow,
                    const std::vector<net::LinkId>& route) {
  const ns3::Ipv4Address dst = flow_destination(flow);
  const ns3::Ipv4Address src = flow_source(flow);
  const net::LinkId first = route.front();
  const net::LinkId last = route.back();
  add_flow_address(pn.nodes.Get(topology.link(first).from), pn.out_interface[first], src, "/30");
  add_flow_address(pn.nodes.Get(topology.link(last).to), pn.out_interface[last ^ 1], dst, "/32");
  for (const net::LinkId l : route) {
    static_routing(pn.nodes.Get(topology.link(l).from))
        ->AddHostRouteTo(dst, pn.far_address[l], pn.out_interface[l]);
    const net::LinkId back = l ^ 1;
    static_routing(pn.nodes.Get(topology.link(back).from))
        ->AddHostRouteTo(src, pn.far_address[back], pn.out_interface[back]);
  }
}

}  // namespace lynxsim::ns3check
