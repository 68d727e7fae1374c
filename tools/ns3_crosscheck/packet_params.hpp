#pragma once
// The packet-level settings of the ns-3 cross-check (tools/ns3_crosscheck/README.md).
//
// Transports:
//   - dctcp: ns-3 3.37's TcpDctcp with ECN; every port's queue is a RED queue disc that marks
//     (never drops early) above K packets: MinTh = MaxTh = K, QW = 1 (instantaneous queue), the
//     marking DCTCP prescribes. K scales with the port's rate from 65 packets at 10 Gbps
//     (Alizadeh et al., "Data Center TCP", SIGCOMM 2010, section 3.4: K = 20 at 1 Gbps, 65 at
//     10 Gbps). A full queue (`buffer_packets`) drops.
//   - newreno: ns-3's TcpNewReno, drop-tail FIFO ports of `buffer_packets`.
//   - udp: a paced UDP bulk sender as a stand-in for RDMA: each flow sends full datagrams at its
//     source NIC's line rate, ports never drop (a lossless fabric, as PFC makes RoCE; pause
//     propagation is not modelled), no congestion control.
//
// Packet sizes: IP MTU 1500 bytes; TCP segments carry 1448 bytes (20 IP + 20 TCP + 12 timestamp
// option), UDP datagrams 1472 (20 IP + 8 UDP); every packet pays 2 bytes of PPP header on the
// wire. The fluid model's goodput (efficiency * rate) is the payload rate, so an ns-3 link runs at
// goodput * wire bytes / payload bytes: a full-size packet stream then delivers the fluid model's
// goodput exactly, and what differs is what packets add (per-hop store-and-forward, queues,
// slow start, ACK clocking, handshakes, losses).
//
// TCP: initial window 10 segments, delayed ACK every 2 segments, 8 MiB socket buffers (never the
// limit at the cases' bandwidth-delay products), minimum RTO `min_rto` (10 ms, a lowered
// data-centre value; Linux's default TCP_RTO_MIN is 200 ms, include/net/tcp.h). A flow's
// connection opens at its start + the network's setup time; its completion is the arrival of its
// last payload byte at the receiver, like the fluid model's.

#include <cstdint>
#include <string>

namespace lynxsim::ns3check {

enum class Transport { Dctcp, NewReno, Udp };

struct PacketParams {
  Transport transport = Transport::Dctcp;
  std::uint32_t buffer_packets = 1000;
  double min_rto_s = 0.010;
  double dctcp_k_at_10g = 65.0;
};

inline constexpr std::uint32_t kIpMtu = 1500;
inline constexpr std::uint32_t kPppHeader = 2;
inline constexpr std::uint32_t kTcpPayload = 1448;
inline constexpr std::uint32_t kUdpPayload = 1472;

inline std::uint32_t payload_bytes(Transport t) {
  return t == Transport::Udp ? kUdpPayload : kTcpPayload;
}

// Payload bytes / wire bytes of a full-size packet.
inline double wire_efficiency(Transport t) {
  return static_cast<double>(payload_bytes(t)) / static_cast<double>(kIpMtu + kPppHeader);
}

std::string transport_name(Transport t);
// Throws std::invalid_argument for a name other than dctcp, newreno, udp.
Transport transport_by_name(const std::string& name);

}  // namespace lynxsim::ns3check
