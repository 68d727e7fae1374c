#include "sim/net/network_factory.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lynxsim::net {
namespace {

struct TracePlayer {
  FlowNetwork* network;
  std::vector<LinkId> links;
  BandwidthTraceSpec trace;
  Time period;
};

// The next step of a trace is a weak event (core/simulator.hpp): a repeating trace plays while the
// run has work and stops with it; a step the clock cannot hold is never scheduled.
void trace_step(const std::shared_ptr<TracePlayer>& p, std::size_t i, Time base_at) {
  for (const LinkId l : p->links) p->network->set_link_rate(l, p->trace.points[i].rate);
  std::size_t next = i + 1;
  std::int64_t next_base = base_at.ps();
  if (next == p->trace.points.size()) {
    if (!p->trace.repeat) return;
    next = 0;
    if (__builtin_add_overflow(next_base, p->period.ps(), &next_base)) return;
  }
  std::int64_t at = 0;
  if (__builtin_add_overflow(next_base, p->trace.points[next].at.ps(), &at)) return;
  p->network->simulator().schedule_weak_at(
      Time::from_ps(at), [p, next, b = Time::from_ps(next_base)] { trace_step(p, next, b); });
}

struct Sender {
  FlowNetwork* network;
  BackgroundSpec spec;
  HostId src;
  HostId dst;
  std::string stream;
};

void send_burst(const std::shared_ptr<Sender>& s);

// The next on period starts off_time after this one ended: after its flow arrived, and never before
// its planned length ran out (a flow of zero bytes, on a path without latency, takes no time).
void after_burst(const std::shared_ptr<Sender>& s, Time planned_end) {
  Simulator& sim = s->network->simulator();
  Time off = s->spec.off_time;
  if (s->spec.exponential && off > Time::zero()) {
    off = Time::from_seconds(sim.rng(s->stream).exponential(1.0 / off.seconds()));
  }
  const Time next = max(sim.now(), planned_end) + off;
  if (next >= s->spec.stop_at) return;
  sim.schedule_weak_at(next, [s] { send_burst(s); });
}

void send_burst(const std::shared_ptr<Sender>& s) {
  Simulator& sim = s->network->simulator();
  Time on = s->spec.on_time.value_or(s->spec.stop_at - sim.now());
  if (s->spec.exponential && s->spec.on_time && on > Time::zero()) {
    on = Time::from_seconds(sim.rng(s->stream).exponential(1.0 / on.seconds()));
  }
  on = max(min(on, s->spec.stop_at - sim.now()), Time::from_ps(1));
  FlowSpec f;
  f.src = s->src;
  f.dst = s->dst;
  f.size = {std::llround(s->spec.rate.to_bytes().value * on.seconds())};
  f.priority_class = s->spec.priority_class;
  f.max_rate = s->spec.rate;
  f.label = s->spec.label;
  f.weak = true;
  const Time planned_end = sim.now() + on;
  s->network->start_flow_with_setup(
      f, [s, planned_end](const FlowRecord&) { after_burst(s, planned_end); }, Time::zero());
}

Time trace_period(const std::vector<TracePoint>& pts) {
  const Time last_gap = pts.size() > 1 ? pts.back().at - pts[pts.size() - 2].at : Time::zero();
  return pts.back().at + last_gap;
}

}  // namespace

std::optional<std::string> bandwidth_trace_problem(const BandwidthTraceSpec& trace) {
  const auto& pts = trace.points;
  if (pts.empty()) return "bandwidth trace without points";
  for (std::size_t i = 1; i < pts.size(); ++i) {
    if (pts[i].at <= pts[i - 1].at) return "bandwidth trace times must increase strictly";
    if (pts[i].at - pts[i - 1].at < kMinTraceStep) return "bandwidth trace steps must be at least 1us apart";
  }
  if (trace.repeat && trace_period(pts) <= Time::zero()) {
    return "a repeating bandwidth trace needs a positive period";
  }
  const bool any_rate = std::any_of(pts.begin(), pts.end(), [](const TracePoint& p) { return p.rate.value > 0.0; });
  if (trace.repeat ? !any_rate : !(pts.back().rate.value > 0.0)) {
    return "the trace leaves the link without bandwidth for ever (its last rate is 0, or every rate of a "
           "repeating trace): no flow on it could end";
  }
  return std::nullopt;
}

void play_bandwidth_trace(FlowNetwork& network, const BandwidthTraceSpec& trace) {
  if (const auto problem = bandwidth_trace_problem(trace)) throw std::invalid_argument(*problem);
  auto p = std::make_shared<TracePlayer>(
      TracePlayer{&network, network.topology().links_by_name(trace.link), trace, Time::zero()});
  const auto& pts = trace.points;
  p->period = trace_period(pts);
  const Time base_at = network.simulator().now();
  network.simulator().schedule_weak_at(base_at + pts.front().at,
                                       [p, base_at] { trace_step(p, 0, base_at); });
}

void start_background(FlowNetwork& network, const BackgroundSpec& spec, std::size_t index) {
  if (!(spec.rate.value > 0.0)) throw std::invalid_argument("background rate must be positive");
  if (spec.stop_at <= spec.start_at) throw std::invalid_argument("background stop_at <= start_at");
  if (spec.src == spec.dst) throw std::invalid_argument("a background sender needs two distinct hosts");
  auto s = std::make_shared<Sender>(Sender{&network, spec, network.host_by_name(spec.src),
                                           network.host_by_name(spec.dst),
                                           "net.background." + std::to_string(index)});
  network.simulator().schedule_weak_at(spec.start_at, [s] { send_burst(s); });
}

Topology build_placed_topology(const NetworkSpec& spec) {
  Topology topology = build_topology(spec.topology);
  if (topology.pools.size() < spec.pool_hosts.size()) topology.pools.resize(spec.pool_hosts.size());
  for (std::size_t p = 0; p < spec.pool_hosts.size(); ++p) {
    if (spec.pool_hosts[p].empty()) continue;
    topology.pools[p].clear();
    for (const auto& n : spec.pool_hosts[p]) topology.pools[p].push_back(topology.host_by_name(n));
  }
  return topology;
}

std::unique_ptr<FlowNetwork> make_flow_network(Simulator& sim, const NetworkSpec& spec) {
  auto network = std::make_unique<FlowNetwork>(sim, build_placed_topology(spec), spec.setup_time,
                                               spec.transfer_engine);
  network->set_rate_tolerance(spec.rate_tolerance);
  network->set_rate_quantum(spec.rate_quantum);
  network->set_scheduling(spec.scheduling);
  for (const auto& t : spec.traces) play_bandwidth_trace(*network, t);
  play_link_faults(*network, spec.faults);
  for (std::size_t i = 0; i < spec.background.size(); ++i) {
    start_background(*network, spec.background[i], i);
  }
  return network;
}

std::unique_ptr<Network> make_network(Simulator& sim, const NetworkSpec& spec) {
  return make_flow_network(sim, spec);
}

}  // namespace lynxsim::net
