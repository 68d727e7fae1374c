#pragma once
// The cases of the ns-3 cross-check, built in so that the table of docs/design.md ("Fluid model
// against packets") can be rerun: `ns3_crosscheck --cases full`.
//
// Scaling: every case runs at 10 Gbps with 20 us per link, which is a 400 Gbps fabric with
// 0.5 us per link carrying the same flow sizes, slowed down 40 times: the packet counts, the
// bandwidth-delay products in packets and the ratios are those of the 400 Gbps fabric, every
// time is 40 times longer (the 200 ms minimum RTO is then 5 ms of the 400 Gbps fabric). This keeps
// each case to seconds of ns-3 processor time.
//
//   single-long / single-short   one 16 MB / 64 KB flow over one link
//   incast-long-N / incast-short-N   N senders (2..64) of 2 MB / 64 KB each, on one switch, into
//                                one decode NIC, all started together
//   leaf-spine-ecmp              4 leaves x 4 hosts, 2 spines, 2:1 oversubscribed; every host of
//                                leaves 0-1 sends 8 MB to a host of leaves 2-3, routes by ECMP
//                                hash (collisions on the uplinks)
//   kv-layers                    the layer-wise KV of one request: 32 flows of 1 MB from a prefill
//                                host to a decode host across the leaf-spine, released at
//                                prefill layer ends (one every 0.5 ms, transfer-bound: they
//                                queue behind each other)
//
// `small` is the suite's set, each with a bound on the ratio of mean completion times
// (ns-3 / fluid) that the test checks.

#include <optional>
#include <string>
#include <vector>

#include "sim/net/flow_list.hpp"
#include "sim/net/network_spec.hpp"
#include "tools/ns3_crosscheck/packet_params.hpp"

namespace lynxsim::ns3check {

struct CrosscheckCase {
  std::string name;
  net::NetworkSpec network;
  std::vector<net::FlowListEntry> flows;
  Transport transport = Transport::Dctcp;
  std::optional<double> bound;  // |mean ratio - 1| must be at most this (small set)
};

std::vector<CrosscheckCase> small_cases();
// Every case with every transport.
std::vector<CrosscheckCase> full_cases();

}  // namespace lynxsim::ns3check
