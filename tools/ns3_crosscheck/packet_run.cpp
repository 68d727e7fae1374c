#include "tools/ns3_crosscheck/packet_run.hpp"

#include <ctime>
#include <memory>

#include <ns3/bulk-send-helper.h>
#include <ns3/config.h>
#include <ns3/inet-socket-address.h>
#include <ns3/packet-sink-helper.h>
#include <ns3/packet-sink.h>
#include <ns3/simulator.h>
#include <ns3/socket.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>
#include <ns3/tcp-socket-base.h>
#include <ns3/udp-socket-factory.h>

#include "tools/ns3_crosscheck/packet_network.hpp"

namespace lynxsim::ns3check {
namespace {

constexpr std::uint16_t kPort = 5000;
constexpr std::uint32_t kSocketBuffer = 8u << 20;

struct Completion {
  std::vector<std::uint64_t> size;
  std::vector<std::uint64_t> received;
  std::vector<double> finish_s;
  std::size_t open = 0;
};

// Counts the payload bytes of one flow at its sink.
class FlowReceiver {
public:
  FlowReceiver(Completion* completion, std::size_t flow) : c_(completion), flow_(flow) {}
  void on_receive(ns3::Ptr<const ns3::Packet> packet, const ns3::Address&) {
    c_->received[flow_] += packet->GetSize();
    if (c_->finish_s[flow_] < 0.0 && c_->received[flow_] >= c_->size[flow_]) {
      c_->finish_s[flow_] = ns3::Simulator::Now().GetSeconds();
      if (--c_->open == 0) ns3::Simulator::Stop();
    }
  }

private:
  Completion* c_;
  std::size_t flow_;
};

// Full datagrams at a fixed interval (the line rate of the first hop), the last one shorter.
class PacedSender {
public:
  PacedSender(ns3::Ptr<ns3::Socket> socket, std::uint64_t bytes, ns3::Time interval)
      : socket_(std::move(socket)), remaining_(bytes), interval_(interval) {}
  void send_next() {
    const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(remaining_, kUdpPayload));
    socket_->Send(ns3::Create<ns3::Packet>(n));
    remaining_ -= n;
    if (remaining_ > 0) ns3::Simulator::Schedule(interval_, &PacedSender::send_next, this);
  }

private:
  ns3::Ptr<ns3::Socket> socket_;
  std::uint64_t remaining_;
  ns3::Time interval_;
};

void set_tcp_defaults(const PacketParams& params) {
  const bool dctcp = params.transport == Transport::Dctcp;
  ns3::Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                          ns3::StringValue(dctcp ? "ns3::TcpDctcp" : "ns3::TcpNewReno"));
  ns3::Config::SetDefault("ns3::TcpSocketBase::UseEcn", ns3::StringValue(dctcp ? "On" : "Off"));
  ns3::Config::SetDefault("ns3::TcpSocket::SegmentSize", ns3::UintegerValue(kTcpPayload));
  ns3::Config::SetDefault("ns3::TcpSocket::InitialCwnd", ns3::UintegerValue(10));
  ns3::Config::SetDefault("ns3::TcpSocket::DelAckCount", ns3::UintegerValue(2));
  ns3::Config::SetDefault("ns3::TcpSocket::SndBufSize", ns3::UintegerValue(kSocketBuffer));
  ns3::Config::SetDefault("ns3::TcpSocket::RcvBufSize", ns3::UintegerValue(kSocketBuffer));
  ns3::Config::SetDefault("ns3::TcpSocketBase::MinRto",
                          ns3::TimeValue(ns3::Seconds(params.min_rto_s)));
}

ns3::Ptr<ns3::PacketSink> install_sink(ns3::Ptr<ns3::Node> node, std::size_t flow, bool tcp) {
  ns3::PacketSinkHelper helper(tcp ? "ns3::TcpSocketFactory" : "ns3::UdpSocketFactory",
                               ns3::InetSocketAddress(flow_destination(flow), kPort));
  auto apps = helper.Install(node);
  apps.Start(ns3::Seconds(0));
  return apps.Get(0)->GetObject<ns3::PacketSink>();
}

void install_tcp_sender(ns3::Ptr<ns3::Node> node, std::size_t flow, std::uint64_t bytes,
                        ns3::Time start) {
  ns3::BulkSendHelper helper("ns3::TcpSocketFactory",
                             ns3::InetSocketAddress(flow_destination(flow), kPort));
  helper.SetAttribute("MaxBytes", ns3::UintegerValue(bytes));
  helper.SetAttribute("SendSize", ns3::UintegerValue(kTcpPayload * 16));
  helper.SetAttribute("Local", ns3::AddressValue(ns3::InetSocketAddress(flow_source(flow), 0)));
  auto apps = helper.Install(node);
  apps.Start(start);
}

std::unique_ptr<PacedSender> install_udp_sender(ns3::Ptr<ns3::Node> node, std::size_t flow,
                                                std::uint64_t bytes, ns3::Time start,
                                                double line_rate_bps) {
  auto socket = ns3::Socket::CreateSocket(node, ns3::UdpSocketFactory::GetTypeId());
  socket->Bind(ns3::InetSocketAddress(flow_source(flow), 0));
  socket->Connect(ns3::InetSocketAddress(flow_destination(flow), kPort));
  const double wire_bits = 8.0 * (kIpMtu + kPppHeader);
  auto sender = std::make_unique<PacedSender>(
      socket, bytes, ns3::PicoSeconds(static_cast<std::int64_t>(wire_bits / line_rate_bps * 1e12)));
  ns3::Simulator::Schedule(start, &PacedSender::send_next, sender.get());
  return sender;
}

std::uint32_t lossless_packets(const std::vector<net::FlowListEntry>& flows) {
  std::uint64_t packets = 1;
  for (const auto& f : flows) packets += static_cast<std::uint64_t>(f.size.value) / kUdpPayload + 1;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(packets, 1u << 30));
}

}  // namespace

PacketRunResult run_packet_flows(const net::Topology& topology,
                                 const std::vector<net::FlowListEntry>& flows,
                                 const std::vector<std::vector<net::LinkId>>& routes,
                                 Time setup_time, const PacketParams& params, double horizon_s) {
  const std::clock_t t0 = std::clock();
  const bool tcp = params.transport != Transport::Udp;
  if (tcp) set_tcp_defaults(params);
  PacketNetwork pn = build_packet_network(topology, params, lossless_packets(flows));
  Completion done;
  done.open = flows.size();
  done.finish_s.assign(flows.size(), -1.0);
  done.received.assign(flows.size(), 0);
  std::vector<std::unique_ptr<PacedSender>> paced;
  std::vector<std::unique_ptr<FlowReceiver>> receivers;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const auto& f = flows[i];
    done.size.push_back(static_cast<std::uint64_t>(f.size.value));
    pin_flow_route(pn, topology, i, routes[i]);
    const auto src = pn.nodes.Get(topology.link(routes[i].front()).from);
    const auto dst = pn.nodes.Get(topology.link(routes[i].back()).to);
    receivers.push_back(std::make_unique<FlowReceiver>(&done, i));
    install_sink(dst, i, tcp)
        ->TraceConnectWithoutContext(
            "Rx", ns3::MakeCallback(&FlowReceiver::on_receive, receivers.back().get()));
    const ns3::Time start = ns3::PicoSeconds((f.start + setup_time).ps());
    if (tcp) {
      install_tcp_sender(src, i, done.size.back(), start);
    } else {
      paced.push_back(
          install_udp_sender(src, i, done.size.back(), start, pn.line_rate_bps[routes[i].front()]));
    }
  }
  ns3::Simulator::Stop(ns3::Seconds(horizon_s));
  ns3::Simulator::Run();
  ns3::Simulator::Destroy();
  const double cpu = static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;
  return {std::move(done.finish_s), cpu};
}

}  // namespace lynxsim::ns3check
