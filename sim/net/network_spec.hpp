#pragma once
// Typed configuration of a network, as the scenario layer fills it (from JSON, see sim/scenario/topology_json.hpp).
//
// A TopologySpec is one of the generated shapes or an explicit graph:
//   single-link    two hosts "prefill" and "decode" joined by one link
//   leaf-spine     `leaves` leaf switches with `hosts_per_leaf` hosts each, every leaf joined to
//                  every one of `spines` spine switches; the uplink rate is given, or derived from
//                  the oversubscription ratio o: uplink = hosts_per_leaf * host_rate / (spines * o)
//   fat-tree       the k-ary fat-tree of Al-Fares et al.: k pods of k/2 edge and k/2 aggregation
//                  switches, (k/2)^2 core switches, k^3/4 hosts, full bisection bandwidth
//   cross-dc       two sites ("a" and "b") of hosts_per_site hosts on a site switch each, the two
//                  switches joined by a WAN link "wan" of its own rate and latency = rtt / 2
//   nvlink-island  `gpus` hosts on one NVLink switch (prefill and decode in one node)
//   graph          explicit hosts, switches and links
// Placement pools: unless given, prefill instances go to the first half of the hosts (first half of
// the leaves, pods or site a) and decode instances to the second half.
// A NetworkSpec adds the per-transfer setup cost, bandwidth traces, background traffic and the rate
// solver's accuracy: rate_tolerance (relative, in [1e-12, 1e-2]; from 1e-6 on the relaxed solver,
// see FlowNetwork::set_rate_tolerance), rate_quantum (zero: rates re-solved at every change;
// otherwise on a grid of that period, see flow_network.hpp), the plane scheduling policy
// (scheduling.hpp) and the transfer engine's per-descriptor costs (transfer_engine.hpp).

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/net/link_faults.hpp"
#include "sim/net/network.hpp"
#include "sim/net/scheduling.hpp"
#include "sim/net/topology.hpp"
#include "sim/net/transfer_engine.hpp"

namespace lynxsim::net {

struct SingleLinkTopology {
  LinkSpec link;
};

struct LeafSpineTopology {
  int leaves = 2;
  int hosts_per_leaf = 4;
  int spines = 2;
  LinkSpec host_link;
  LinkSpec uplink;                        // uplink.rate ignored when oversubscription is set
  std::optional<double> oversubscription;
};

struct FatTreeTopology {
  int k = 4;
  LinkSpec link;
  std::optional<LinkSpec> host_link;  // host-to-edge links, default `link`
};

struct CrossDcTopology {
  int hosts_per_site = 1;
  LinkSpec host_link;
  LinkSpec wan;  // latency = one-way (rtt / 2)
};

struct NvlinkIslandTopology {
  int gpus = 8;
  LinkSpec nvlink;
};

struct GraphLink {
  std::string a;
  std::string b;
  LinkSpec spec;
  std::string name;
};

struct GraphTopology {
  std::vector<std::string> hosts;
  std::vector<std::string> switches;
  std::vector<GraphLink> links;
};

using TopologySpec = std::variant<SingleLinkTopology, LeafSpineTopology, FatTreeTopology,
                                  CrossDcTopology, NvlinkIslandTopology, GraphTopology>;

struct TracePoint {
  Time at;
  BitsPerSecond rate;
};

// The line rate of both directions of link `link` follows `points` (piecewise constant from each
// point's time on; before the first point the link keeps its configured rate). With `repeat`, the
// trace restarts after its last interval: period = last time + (last time - previous time).
// Steps are at least kMinTraceStep apart, so a run of S simulated seconds plays at most 10^6 S
// steps of a trace; a rate of 0 (an outage) must be followed by a positive one.
inline constexpr Time kMinTraceStep = Time::from_ps(1'000'000);

struct BandwidthTraceSpec {
  std::string link;
  std::vector<TracePoint> points;
  bool repeat = false;
};

// A paced sender between two hosts: on periods send at `rate` (a flow of rate * on_time bytes capped
// at that rate), separated by off periods; fixed lengths, or exponential with those means.
// No on_time: one flow from start_at to stop_at (constant-rate traffic).
struct BackgroundSpec {
  std::string src;
  std::string dst;
  BitsPerSecond rate;
  std::optional<Time> on_time;
  Time off_time = Time::zero();
  bool exponential = false;
  Time start_at = Time::zero();
  Time stop_at;
  int priority_class = kBackgroundClass;
  std::string label = "background";
};

struct NetworkSpec {
  TopologySpec topology = SingleLinkTopology{};
  Time setup_time = Time::zero();
  // Host names of placement pool p (Network::place), replacing the topology's default pool p when
  // not empty; the scenario's prefill_hosts and decode_hosts are pools 0 and 1.
  std::vector<std::vector<std::string>> pool_hosts;
  std::vector<BandwidthTraceSpec> traces;
  std::vector<BackgroundSpec> background;
  std::vector<LinkFaultSpec> faults;
  double rate_tolerance = 1e-9;
  Time rate_quantum = Time::zero();
  SchedulingSpec scheduling;
  // Per-descriptor costs of the transfers (transfer_engine.hpp); none: a transfer is bytes alone.
  std::optional<TransferEngineSpec> transfer_engine;
};

// Builds the graph of a TopologySpec; throws std::invalid_argument for impossible shapes.
Topology build_topology(const TopologySpec& spec);

// The link specs the topology's links are built with (each once or more), without building it.
std::vector<LinkSpec> link_specs(const TopologySpec& spec);

// Why a bandwidth trace cannot be played (no points, times not strictly increasing or closer than
// kMinTraceStep, a repeating trace without a positive period, a link left at rate 0 for ever), or
// nullopt; the parser and the player both ask it.
std::optional<std::string> bandwidth_trace_problem(const BandwidthTraceSpec& trace);

}  // namespace lynxsim::net
