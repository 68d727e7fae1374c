#pragma once
// The network as the serving layer sees it: start a flow of bytes between two hosts, be told when
// its last byte has arrived.
//
// Timeline of one flow started at t0 on a route of links l1..ln:
//   t0                      start_flow(): the per-transfer setup cost begins (RDMA registration,
//                           framework handshake); the flow holds no bandwidth yet
//   t0 + setup              the flow joins the rate solver and competes for bandwidth
//   t_sent                  its last byte leaves the source (remaining bytes reach 0); its bandwidth
//                           is released
//   finished_at = t_sent + sum(latency(li))   the last byte arrives at dst; on_done runs
// A lone flow of B bytes on an idle path therefore completes after
//   setup + sum(latency) + B / min_i(efficiency_i * rate_i),
// and a zero-byte flow after setup + sum(latency). first_byte_at is the first instant the flow holds
// a positive rate plus the path latency (for a zero-byte flow, finished_at).
//
// Priority classes: lower number = higher priority. Plane p of a KV transfer uses class p (anchor 0,
// residual 1, further planes 2, 3, ...); background traffic uses kBackgroundClass. How classes share
// a link is the network's scheduling policy (scheduling.hpp; default strict priority across
// classes); inside a class, bandwidth is shared max-min fairly in proportion to the weights.
// max_rate (0 = unlimited) caps a flow's rate, e.g. a paced background sender. A weak flow
// (background traffic) shares links like any other but does not keep Simulator::run() going: once
// only weak flows are left, the network's events are weak too.
//
// Hosts are the endpoints of flows (a GPU with its own NIC, or a GPU behind an NVLink switch).
// Instances are placed on hosts by the topology's placement pools (see place()). Events published
// on the Simulator's ObserverBus: FlowStarted and FlowFinished (Chrome trace, metrics), and, when
// someone subscribes, LinkLoadChanged and ClassRateChanged (utilisation and per-class throughput).

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace lynxsim::net {

using HostId = std::uint32_t;
using FlowId = std::uint64_t;
using LinkId = std::uint32_t;

inline constexpr int kBackgroundClass = 1000;

struct FlowSpec {
  HostId src = 0;
  HostId dst = 0;
  Bytes size;
  int priority_class = 0;
  double weight = 1.0;
  std::string label;  // for messages and flow lists only; may be empty
  BitsPerSecond max_rate{0.0};
  // Opaque to the network: the sender's name for the flow, handed back in FlowRecord to the
  // completion callback and observers (serving: the request id; `lynxsim flows`: the list index);
  // -1 = none.
  std::int64_t tag = -1;
  // Opaque ordering key for the scheduling policies (scheduling.hpp): flows with a smaller key go
  // first under "request_order"; -1 = none.
  std::int64_t order_key = -1;
  // Background traffic: its events are weak (core/simulator.hpp), so it never keeps a run alive.
  bool weak = false;
};

struct FlowRecord {
  FlowId id = 0;
  FlowSpec spec;
  Time started_at;
  Time first_byte_at;
  Time finished_at;
  Time path_latency_time;
  std::uint32_t hops = 0;
};

using FlowDone = std::function<void(const FlowRecord&)>;

// A placement pool of the topology (Topology::pools).
using PoolId = std::uint32_t;

class Network {
public:
  virtual ~Network() = default;

  // Starts a flow now (sim.now()); on_done runs when its last byte has arrived at spec.dst.
  // Throws std::invalid_argument for an unknown host, a negative size or a non-positive weight.
  virtual FlowId start_flow(FlowSpec spec, FlowDone on_done) = 0;
  // As start_flow with a setup cost of its own instead of the network's (zero: buffers registered
  // once, as background senders and an expert all-to-all use them).
  virtual FlowId start_flow_with_setup(FlowSpec spec, FlowDone on_done, Time setup_time) = 0;
  // Cancels a flow started and not yet finished: it leaves the rate solver now (the others' rates
  // are recomputed), its on_done never runs, and its bytes count neither as delivered. Returns the
  // bytes that had left the source (zero in setup, spec.size once its last byte was sent); zero for
  // a flow that has already finished or was cancelled.
  virtual Bytes cancel_flow(FlowId id) = 0;
  // Flows started and not yet finished (in setup, transmitting, or with bytes still in flight).
  virtual std::size_t active_flows() const = 0;
  // Sum of spec.size over finished flows (exact); cancelled flows are not counted.
  virtual Bytes bytes_delivered() const = 0;

  virtual std::size_t num_hosts() const = 0;
  virtual const std::string& host_name(HostId host) const = 0;
  // Throws std::invalid_argument naming the host when there is none of that name.
  virtual HostId host_by_name(std::string_view name) const = 0;
  // Host of rank `rank` of a sender group `instance` placed in pool `pool`: group i takes the
  // ranks_per_instance consecutive hosts of the pool starting at i * ranks_per_instance, wrapping
  // around (ranks then share a host and its NIC) when the pool is too small. Throws
  // std::invalid_argument for a pool the topology does not have.
  virtual HostId place(PoolId pool, std::uint32_t instance, std::uint32_t rank,
                       std::uint32_t ranks_per_instance) const = 0;
  // "<from node>-><to node>" for a directed link, in topology node names ("leaf0.h1->leaf0"); links
  // are numbered as in LinkLoadChanged. Throws std::invalid_argument for an unknown link.
  virtual std::string link_name(LinkId link) const = 0;
};

// ObserverBus events.
struct FlowStarted {
  FlowRecord record;  // finished_at and first_byte_at are not known yet (zero)
};
struct FlowFinished {
  FlowRecord record;
};
// Published when the total rate of a directed link or its capacity changes (only with subscribers).
struct LinkLoadChanged {
  Time at;
  LinkId link = 0;
  BytesPerSecond used;
  BytesPerSecond capacity;
};
// Published when the summed rate of a priority class changes (only with subscribers).
struct ClassRateChanged {
  Time at;
  int priority_class = 0;
  BytesPerSecond rate;
};

}  // namespace lynxsim::net
