#pragma once
// One comparison: a flow list on a network, through lynxsim's fluid model (run_flow_list, the
// path of `lynxsim flows`) and through ns-3 on the routes the fluid model chose (packet_run.hpp).
//
// A flow's completion time (FCT) is finish - start in both; the ratio compared is ns-3 / fluid,
// per flow, of the mean FCT over the list and of the list's span (last finish - first start:
// when every flow of an incast or every layer of a request has arrived).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/net/flow_list.hpp"
#include "sim/net/flow_list_run.hpp"
#include "sim/net/network_spec.hpp"
#include "tools/ns3_crosscheck/packet_params.hpp"

namespace lynxsim::ns3check {

struct Comparison {
  std::vector<net::FlowListResult> fluid;
  std::vector<double> packet_finish_s;  // -1: did not finish within the horizon
  double packet_cpu_s = 0.0;
};

// What ns-3 cannot reproduce here (bandwidth traces, background senders, link faults, a transfer
// engine, priority classes or weights that differ, empty flows), or nullopt.
std::optional<std::string> unsupported(const net::NetworkSpec& network,
                                       const std::vector<net::FlowListEntry>& flows);

Comparison compare(const net::NetworkSpec& network, const std::vector<net::FlowListEntry>& flows,
                   const PacketParams& params, std::uint64_t seed, const std::string& source);

struct Summary {
  double packet_mean_fct_s = 0.0;
  double fluid_mean_fct_s = 0.0;
  double min_ratio = 0.0;
  double max_ratio = 0.0;
  double packet_span_s = 0.0;
  double fluid_span_s = 0.0;
  std::size_t unfinished = 0;
  double mean_ratio() const { return packet_mean_fct_s / fluid_mean_fct_s; }
  double span_ratio() const { return packet_span_s / fluid_span_s; }
};

Summary summarize(const Comparison& c);

// The ns-3 completion times in the CSV form of `lynxsim flows --out`.
std::string packet_csv(const Comparison& c, const net::Topology& topology);

}  // namespace lynxsim::ns3check
