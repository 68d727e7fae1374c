// Cross-check of lynxsim's flow network against SimGrid's max-min network model (CM02, LMM solver).
//
// Five platforms (dumbbell, parking lot, leaf-spine, fat-tree k=4 with starts spread over 200 ms,
// and a burst of 2,500 flows started together on a k=8 fat-tree, where a solver tolerance that
// drifts shows), each with a seeded random flow list (random hosts, sizes 5-200 MB; equal classes
// and weights, which SimGrid's comms cannot differ in), run in lynxsim (run_flow_list, the path
// of `lynxsim flows`) and in SimGrid 3.32; completion times must agree to 1e-9 relative, or 2 ps
// for short flows (lynxsim's clock counts whole picoseconds).
//
// How the two models map:
//   - lynxsim's directed link l (capacity = efficiency * rate / 8 bytes/s) is one SimGrid link of
//     that bandwidth, sharing policy SHARED, latency 0; every flow gets a private pair of SimGrid
//     hosts in a star zone: the source's up-route is the lynxsim flow's ECMP route, link for link,
//     the destination's down-route is empty.
//   - SimGrid's CM02 pays a route's latency BEFORE the flow joins bandwidth sharing and, with a
//     latency, weighs flows by it (RTT unfairness; rate bound TCP-gamma / 2 latency); lynxsim's
//     flows share bandwidth unweighted after the network's setup time and pay the path latency
//     AFTER their last byte leaves (network.hpp). So SimGrid links carry no latency, its comm
//     starts at lynxsim start + setup_time, and lynxsim's finish = SimGrid's finish + the sum of
//     the route's link latencies.
//   - SimGrid options: network/model:CM02 with bandwidth-factor 1, latency-factor 1, weight-S 0,
//     TCP-gamma 0 (no window bound), crosstraffic 0 (no 5 % reverse-path load for ACKs),
//     maxmin/precision 1e-13 and surf/precision 1e-13 (its defaults, 1e-5 and 1e-9, snap
//     link residuals and merge completions within 1 ns).
// Exit code 0 on agreement, 1 otherwise; prints the worst relative error per platform and both
// simulators' wall times. `simgrid_crosscheck --flows FILE --network NETWORK.json` checks one flow
// list (the format of `lynxsim flows`; classes and weights must be equal) on one network instead.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <map>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "sim/scenario/input_file.hpp"
#include "sim/core/rng.hpp"
#include "sim/net/flow_list_run.hpp"
#include "sim/net/network_spec.hpp"
#include "sim/scenario/flow_list_file.hpp"
#include "sim/scenario/topology_json.hpp"

namespace sg4 = simgrid::s4u;
using namespace lynxsim;
using namespace lynxsim::net;
using namespace lynxsim::scenario;

namespace {

constexpr double kTolerance = 1e-9;
// lynxsim's clock counts whole picoseconds: every event time is rounded to the picosecond.
constexpr double kClockSlack = 2e-12;

struct Case {
  std::string name;
  NetworkSpec spec;
  std::vector<FlowListEntry> flows;
  std::vector<FlowListResult> lynx;
  std::vector<double> simgrid_finish;  // seconds, SimGrid's clock
  double lynx_wall = 0.0;
};

LinkSpec link_of(double gbps, double latency_us, double efficiency) {
  return LinkSpec{BitsPerSecond{gbps * 1e9}, Time::from_us(latency_us), efficiency};
}

GraphTopology dumbbell() {
  GraphTopology g;
  g.switches = {"left", "right"};
  for (int i = 0; i < 4; ++i) {
    for (const char* side : {"left", "right"}) {
      const std::string h = fmt::format("{}{}", side[0] == 'l' ? "a" : "b", i);
      g.hosts.push_back(h);
      g.links.push_back({h, side, link_of(25, 1, 0.9), ""});
    }
  }
  g.links.push_back({"left", "right", link_of(40, 5, 0.95), "bottleneck"});
  return g;
}

GraphTopology parking_lot() {
  GraphTopology g;
  for (int i = 0; i < 5; ++i) {
    g.switches.push_back(fmt::format("s{}", i));
    g.hosts.push_back(fmt::format("h{}", i));
    g.links.push_back({g.hosts.back(), g.switches.back(), link_of(100, 1, 1.0), ""});
    if (i > 0) g.links.push_back({g.switches[i - 1], g.switches[i], link_of(10 * i, 2, 0.8), ""});
  }
  return g;
}

NetworkSpec spec_of(TopologySpec topology) {
  NetworkSpec s;
  s.topology = std::move(topology);
  s.setup_time = Time::from_us(10);
  return s;
}

std::vector<FlowListEntry> random_flows(const Topology& t, std::size_t n, double span_s,
                                        std::uint64_t seed) {
  RngStream rng(seed);
  std::vector<FlowListEntry> flows;
  for (std::size_t i = 0; i < n; ++i) {
    FlowListEntry f;
    const auto src = static_cast<HostId>(rng.uniform_int(t.num_hosts()));
    auto dst = static_cast<HostId>(rng.uniform_int(t.num_hosts() - 1));
    if (dst >= src) ++dst;
    f.src = t.host_name(src);
    f.dst = t.host_name(dst);
    f.size = Bytes{static_cast<std::int64_t>(rng.uniform(5e6, 200e6))};
    f.start = Time::from_ps(static_cast<std::int64_t>(rng.uniform(0.0, span_s) * 1e12));
    f.where = fmt::format("flow {}", i);
    flows.push_back(std::move(f));
  }
  return flows;
}

std::vector<Case> make_cases() {
  std::vector<Case> cases;
  const auto add = [&](std::string name, TopologySpec topology, std::size_t flows, double span_s,
                       std::uint64_t seed) {
    Case c{std::move(name), spec_of(std::move(topology)), {}, {}, {}, 0.0};
    c.flows = random_flows(build_topology(c.spec.topology), flows, span_s, seed);
    cases.push_back(std::move(c));
  };
  add("dumbbell", dumbbell(), 60, 0.2, 11);
  add("parking-lot", parking_lot(), 60, 0.2, 12);
  add("leaf-spine", LeafSpineTopology{4, 4, 2, link_of(100, 1, 0.9), link_of(0, 2, 0.9), 2.0}, 150,
      0.2, 13);
  add("fat-tree-k4", FatTreeTopology{4, link_of(100, 1, 0.85), link_of(50, 0.5, 0.9)}, 300, 0.2, 14);
  add("fat-tree-k8", FatTreeTopology{8, link_of(100, 1, 1.0), std::nullopt}, 2500, 0.0, 15);
  return cases;
}

void run_lynxsim(Case& c) {
  const auto t0 = std::chrono::steady_clock::now();
  c.lynx = run_flow_list(c.spec, c.flows, 1, c.name);
  c.lynx_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct SgFlow {
  double start;
  sg4::Host* src;
  sg4::Host* dst;
  std::uint64_t bytes;
  double* finish;
};

std::vector<SgFlow> build_platform(sg4::NetZone* zone, std::vector<Case>& cases) {
  std::vector<SgFlow> out;
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    Case& c = cases[ci];
    const Topology t = build_topology(c.spec.topology);
    std::vector<sg4::Link*> links;
    for (LinkId l = 0; l < t.num_links(); ++l) {
      links.push_back(zone->create_link(fmt::format("c{}.l{}", ci, l), t.link(l).spec.goodput().value)
                          ->set_sharing_policy(sg4::Link::SharingPolicy::SHARED)
                          ->seal());
    }
    c.simgrid_finish.assign(c.flows.size(), -1.0);
    for (std::size_t i = 0; i < c.flows.size(); ++i) {
      auto* src = zone->create_host(fmt::format("c{}.f{}.src", ci, i), 1e9)->seal();
      auto* dst = zone->create_host(fmt::format("c{}.f{}.dst", ci, i), 1e9)->seal();
      std::vector<sg4::LinkInRoute> route;
      for (const LinkId l : c.lynx[i].route) route.emplace_back(links[l]);
      zone->add_route(src->get_netpoint(), nullptr, nullptr, nullptr, route, false);
      zone->add_route(nullptr, dst->get_netpoint(), nullptr, nullptr, {}, false);
      const double start = (c.flows[i].start + c.spec.setup_time).seconds();
      out.push_back({start, src, dst, static_cast<std::uint64_t>(c.flows[i].size.value),
                     &c.simgrid_finish[i]});
    }
  }
  std::sort(out.begin(), out.end(), [](const SgFlow& a, const SgFlow& b) { return a.start < b.start; });
  return out;
}

void drive(const std::vector<SgFlow>& flows) {
  std::vector<std::pair<sg4::CommPtr, double*>> comms;
  for (const SgFlow& f : flows) {
    sg4::this_actor::sleep_until(f.start);
    comms.emplace_back(sg4::Comm::sendto_async(f.src, f.dst, f.bytes), f.finish);
  }
  for (auto& [comm, finish] : comms) {
    comm->wait();
    *finish = comm->get_finish_time();
  }
}

double run_simgrid(int argc, char** argv, std::vector<Case>& cases) {
  sg4::Engine engine(&argc, argv);
  for (const char* option :
       {"network/model:CM02", "network/bandwidth-factor:1", "network/latency-factor:1",
        "network/weight-S:0", "network/TCP-gamma:0", "network/crosstraffic:0",
        "maxmin/precision:1e-13", "surf/precision:1e-13"}) {
    engine.set_config(option);
  }
  auto* zone = sg4::create_star_zone("crosscheck");
  auto* driver = zone->create_host("driver", 1e9)->seal();
  const std::vector<SgFlow> flows = build_platform(zone, cases);
  zone->seal();
  sg4::Actor::create("driver", driver, [&flows] { drive(flows); });
  const auto t0 = std::chrono::steady_clock::now();
  engine.run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool compare(const Case& c) {
  double worst = 0.0;
  double worst_ps = 0.0;
  std::size_t worst_at = 0;
  bool ok = true;
  for (std::size_t i = 0; i < c.flows.size(); ++i) {
    const FlowRecord& r = c.lynx[i].record;
    const double expected = c.simgrid_finish[i] + r.path_latency_time.seconds();
    const double fct = expected - r.started_at.seconds();
    const double diff = std::abs(r.finished_at.seconds() - expected);
    ok = ok && diff <= kTolerance * fct + kClockSlack;
    if (!(diff / fct <= worst)) {
      worst = diff / fct;
      worst_ps = diff * 1e12;
      worst_at = i;
    }
  }
  std::printf("%-12s %5zu flows  worst relative error %.3g (flow %zu, %.3f ps)  lynxsim %.4f s  %s\n",
              c.name.c_str(), c.flows.size(), worst, worst_at, worst_ps, c.lynx_wall,
              ok ? "ok" : "FAILED");
  return ok;
}

}  // namespace

// Removes "--flows FILE --network NETWORK" from argv and returns the case they name, if any.
namespace {

std::vector<Case> cases_from_args(int& argc, char** argv) {
  std::string flows;
  std::string network;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--flows" || a == "--network") && i + 1 < argc) {
      (a == "--flows" ? flows : network) = argv[++i];
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (flows.empty() || network.empty()) return make_cases();
  const auto json = nlohmann::json::parse(read_input_file(network, kMaxConfigFileBytes));
  Case c{flows, parse_network(json, "", "."), load_flow_list(flows), {}, {}, 0.0};
  return {std::move(c)};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Case> cases = cases_from_args(argc, argv);
  for (Case& c : cases) run_lynxsim(c);
  const double simgrid_wall = run_simgrid(argc, argv, cases);
  bool ok = true;
  double lynx_wall = 0.0;
  for (const Case& c : cases) {
    ok = compare(c) && ok;
    lynx_wall += c.lynx_wall;
  }
  std::printf("wall time: lynxsim %.4f s, SimGrid %.4f s (all platforms)\n", lynx_wall, simgrid_wall);
  return ok ? 0 : 1;
}
