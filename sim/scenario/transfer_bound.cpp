// check_transfer_time: a run can end on the clock only if every flow can. The largest flow of a run
// is at most the whole KV of its longest prompt in the most bytes any of its methods sends (CacheGen
// counted as BF16, which its encoding only shrinks), or one period of its largest background
// sender. Alone on a link of goodput g (rate x efficiency) it takes bytes / g; on a link a bandwidth
// trace drives, at most the trace's last time plus bytes over its last rate's goodput, or (a
// repeating trace) one period plus bytes over its mean goodput. The slowest link must carry that
// flow within kMaxTransferTime (input_limits.hpp), else the run is refused at the link's rate:
// /network/bandwidth (the shorthand), /network/traces/N or /network/topology. A transfer engine
// (net::engine_rate) bounds every transfer too: refused at /network/transfer_engine.

#include <algorithm>
#include <fmt/format.h>
#include <map>

#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/scenario_sections.hpp"
#include "sim/serving/kv_bytes.hpp"

namespace lynxsim::scenario {
namespace {

struct Carrier {
  double goodput = 0.0;  // bytes per second
  Time delay;
  std::string path;
  std::string link;
};

double largest_flow_bytes(const Scenario& s) {
  int context = 1;
  for (const auto& r : s.serving.requests) context = std::max(context, r.context_tokens);
  int tp = 1;
  for (const auto* groups : {&s.serving.extra_prefill, &s.serving.extra_decode}) {
    for (const auto& g : *groups) tp = std::max(tp, g.tensor_parallel);
  }
  tp = std::max({tp, s.serving.prefill.tensor_parallel, s.serving.decode.tensor_parallel});
  double bytes = 0.0;
  const quant::KvGeometry geometry = serving::kv_geometry_of(s.serving.model);
  for (const quant::MethodSpec& m : s.methods) {
    double sum = 0.0;
    for (const Bytes b : serving::total_plane_bytes(m, geometry, tp, context, 1.0)) sum += b.as_double();
    bytes = std::max(bytes, sum);
  }
  for (const net::BackgroundSpec& b : s.network.background) {
    const Time on = b.on_time.value_or(b.stop_at - b.start_at);
    bytes = std::max(bytes, b.rate.to_bytes().value * on.seconds());
  }
  return bytes;
}

Carrier traced(const net::BandwidthTraceSpec& t, double efficiency, const std::string& path) {
  const auto& pts = t.points;
  if (!t.repeat) return {pts.back().rate.to_bytes().value * efficiency, pts.back().at, path, ""};
  const Time period = pts.back().at + (pts.back().at - pts[pts.size() - 2].at);
  double bytes_per_period = 0.0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const Time end = i + 1 < pts.size() ? pts[i + 1].at : period;
    bytes_per_period += pts[i].rate.to_bytes().value * (end - pts[i].at).seconds();
  }
  return {efficiency * bytes_per_period / (period - pts.front().at).seconds(), period, path, ""};
}

Carrier slowest_link(const Scenario& s) {
  std::map<std::string, std::size_t> trace_of;
  for (std::size_t i = 0; i < s.network.traces.size(); ++i) trace_of[s.network.traces[i].link] = i;
  const net::Topology t = net::build_topology(s.network.topology);
  const std::string static_path = s.network_shorthand ? "/network/bandwidth" : "/network/topology";
  Carrier slowest{0.0, Time::zero(), "", ""};
  for (std::size_t l = 0; l < t.num_links(); l += 2) {
    const net::DirectedLink& link = t.links()[l];
    const auto it = trace_of.find(link.name);
    Carrier c = it == trace_of.end()
                    ? Carrier{link.spec.goodput().value, Time::zero(), static_path, ""}
                    : traced(s.network.traces[it->second], link.spec.efficiency,
                             fmt::format("/network/traces/{}", it->second));
    c.link = link.name;
    if (slowest.path.empty() || c.goodput < slowest.goodput) slowest = c;
  }
  return slowest;
}

// Whether every link can carry `bytes` within the bound, read from the topology's link specs alone
// (building a generated topology of 2^20 hosts takes seconds and a gigabyte); a traced link needs
// the built topology.
bool specs_carry(const Scenario& s, double bytes) {
  if (!s.network.traces.empty()) return false;
  for (const net::LinkSpec& spec : net::link_specs(s.network.topology)) {
    if (bytes / spec.goodput().value > kMaxTransferTime.seconds()) return false;
  }
  return true;
}

void check_engine_time(const Scenario& s, double bytes, IssueList& issues) {
  if (!s.network.transfer_engine) return;
  const double rate = net::engine_rate(*s.network.transfer_engine);
  if (bytes / rate <= kMaxTransferTime.seconds()) return;
  issues.add("/network/transfer_engine",
             fmt::format("the largest flow of the run ({:.0f} bytes) would take {:.3g} days through the "
                         "transfer engine at {:.3g} bytes/s, more than the {:g} days a transfer may take",
                         bytes, bytes / rate / 86400.0, rate, kMaxTransferTime.seconds() / 86400.0));
}

}  // namespace

void check_transfer_time(const Scenario& s, IssueList& issues) {
  const double bytes = largest_flow_bytes(s);
  check_engine_time(s, bytes, issues);
  if (specs_carry(s, bytes)) return;
  const Carrier slowest = slowest_link(s);
  if (slowest.path.empty()) return;
  const double seconds = slowest.delay.seconds() + bytes / slowest.goodput;
  if (seconds <= kMaxTransferTime.seconds()) return;
  issues.add(slowest.path,
             fmt::format("the largest flow of the run ({:.0f} bytes) would take {:.3g} days alone on link "
                         "\"{}\" at {:.3g} bytes/s of goodput (rate x efficiency), more than the {:g} "
                         "days a transfer may take; raise the rate or the efficiency",
                         bytes, seconds / 86400.0, slowest.link, slowest.goodput,
                         kMaxTransferTime.seconds() / 86400.0));
}

}  // namespace lynxsim::scenario
