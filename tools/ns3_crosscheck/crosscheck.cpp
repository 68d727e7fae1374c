#include "tools/ns3_crosscheck/crosscheck.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

#include "tools/ns3_crosscheck/packet_run.hpp"

namespace lynxsim::ns3check {
namespace {

// ns-3 stops at this multiple of the fluid model's last finish (plus a slack): a flow that has
// not finished by then is reported unfinished instead of running on. The slack covers TCP
// connection timeouts (a lost SYN waits 3 s, ns-3's ConnTimeout, then twice as long).
constexpr double kHorizonFactor = 100.0;
constexpr double kHorizonSlackS = 60.0;

double fluid_fct(const net::FlowListResult& r) {
  return (r.record.finished_at - r.record.started_at).seconds();
}

}  // namespace

std::optional<std::string> unsupported(const net::NetworkSpec& network,
                                       const std::vector<net::FlowListEntry>& flows) {
  if (!network.traces.empty()) return "bandwidth traces";
  if (!network.background.empty()) return "background senders";
  if (!network.faults.empty()) return "link faults";
  if (network.transfer_engine) return "a transfer engine";
  for (const auto& f : flows) {
    if (f.size.value <= 0) return fmt::format("{}: an empty flow", f.where);
    if (f.priority_class != flows.front().priority_class || f.weight != flows.front().weight) {
      return fmt::format("{}: a priority class or weight other than the first flow's", f.where);
    }
  }
  return std::nullopt;
}

Comparison compare(const net::NetworkSpec& network, const std::vector<net::FlowListEntry>& flows,
                   const PacketParams& params, std::uint64_t seed, const std::string& source) {
  Comparison c;
  c.fluid = net::run_flow_list(network, flows, seed, source);
  std::vector<std::vector<net::LinkId>> routes;
  double last = 0.0;
  for (const auto& r : c.fluid) {
    routes.push_back(r.route);
    last = std::max(last, r.record.finished_at.seconds());
  }
  const net::Topology topology = net::build_topology(network.topology);
  const auto run = run_packet_flows(topology, flows, routes, network.setup_time, params,
                                    kHorizonFactor * last + kHorizonSlackS);
  c.packet_finish_s = run.finish_s;
  c.packet_cpu_s = run.cpu_s;
  return c;
}

Summary summarize(const Comparison& c) {
  Summary s;
  s.min_ratio = std::numeric_limits<double>::infinity();
  double first_start = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < c.fluid.size(); ++i) {
    const double fluid = fluid_fct(c.fluid[i]);
    first_start = std::min(first_start, c.fluid[i].record.started_at.seconds());
    s.fluid_span_s = std::max(s.fluid_span_s, c.fluid[i].record.finished_at.seconds());
    s.packet_span_s = std::max(s.packet_span_s, c.packet_finish_s[i]);
    s.fluid_mean_fct_s += fluid;
    if (c.packet_finish_s[i] < 0.0) {
      ++s.unfinished;
      continue;
    }
    const double packet = c.packet_finish_s[i] - c.fluid[i].record.started_at.seconds();
    s.packet_mean_fct_s += packet;
    s.min_ratio = std::min(s.min_ratio, packet / fluid);
    s.max_ratio = std::max(s.max_ratio, packet / fluid);
  }
  const auto n = static_cast<double>(c.fluid.size());
  s.fluid_mean_fct_s /= n;
  s.packet_mean_fct_s /= n;
  s.fluid_span_s -= first_start;
  s.packet_span_s -= first_start;
  return s;
}

std::string packet_csv(const Comparison& c, const net::Topology& topology) {
  std::string csv = "index,label,src,dst,size_B,class,start_s,finish_s,fct_s,hops\n";
  for (std::size_t i = 0; i < c.fluid.size(); ++i) {
    const net::FlowRecord& r = c.fluid[i].record;
    const double start = r.started_at.seconds();
    const double finish = c.packet_finish_s[i];
    csv += fmt::format("{},{},{},{},{},{},{:.12f},{:.12f},{:.12f},{}\n", i, r.spec.label,
                       topology.host_name(r.spec.src), topology.host_name(r.spec.dst),
                       r.spec.size.value, r.spec.priority_class, start, finish,
                       finish < 0.0 ? -1.0 : finish - start, r.hops);
  }
  return csv;
}

}  // namespace lynxsim::ns3check
