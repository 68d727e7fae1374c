#pragma once
// The flow-level Network: flows on routes of a Topology, rates from the FlowSolver, one pending
// completion event.
//
// Per transmitting flow the network keeps the bytes still to send, its current rate and the time of
// its last update; when the solver changes a flow's rate, the bytes sent since the last update at the
// old rate are subtracted first (clamped at zero), and the projected end of sending is
// now + remaining / rate, rounded once to the picosecond. Projected ends live in an indexed heap; the
// simulator holds a single completion event for the earliest one, moved whenever the earliest
// changes. At that event the flow's remaining bytes are by definition zero; it leaves the solver and
// its last byte arrives a path latency later. Bytes delivered are counted from the flow sizes, so
// they equal the bytes sent exactly.
//
// Changes at one instant (many flows joining, completions, capacity steps) are coalesced: they mark
// the solver and one zero-delay resolve event re-solves once. See network.hpp for the flow timeline.

#include <chrono>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/net/completion_heap.hpp"
#include "sim/net/flow_solver.hpp"
#include "sim/net/network.hpp"
#include "sim/net/router.hpp"
#include "sim/net/topology.hpp"

namespace lynxsim::net {

class FlowNetwork final : public Network {
public:
  FlowNetwork(Simulator& sim, Topology topology, Time setup_time);

  FlowId start_flow(FlowSpec spec, FlowDone on_done) override;
  // As start_flow with a setup cost of its own (background senders use zero).
  FlowId start_flow_with_setup(FlowSpec spec, FlowDone on_done, Time setup_time);
  std::size_t active_flows() const override { return pending_.size(); }
  Bytes bytes_delivered() const override { return delivered_; }
  std::size_t num_hosts() const override { return topology_->num_hosts(); }
  const std::string& host_name(HostId host) const override { return topology_->host_name(host); }
  HostId host_by_name(std::string_view name) const override {
    return topology_->host_by_name(name);
  }
  HostId place(InstanceRole role, std::uint32_t instance, std::uint32_t rank,
               std::uint32_t ranks_per_instance) const override;

  // Sets the line rate of one directed link (goodput = efficiency * rate) from now on.
  void set_link_rate(LinkId link, BitsPerSecond rate);
  BitsPerSecond link_rate(LinkId link) const { return line_rate_.at(link); }
  // Current summed rate of the flows on a directed link.
  BytesPerSecond link_load(LinkId link) const { return {link_used_.at(link)}; }
  // Relative tolerance of the rate solver (FlowSolver::set_tolerance).
  void set_rate_tolerance(double relative) { solver_.set_tolerance(relative); }
  const Topology& topology() const { return *topology_; }
  Topology& mutable_topology() { return *topology_; }
  const Router& router() const { return router_; }
  Simulator& simulator() { return sim_; }

  struct Counters {
    std::uint64_t recomputations = 0;
    double recompute_wall_seconds = 0.0;
    std::uint64_t completion_reschedules = 0;
  };
  const Counters& counters() const { return counters_; }
  const FlowSolver::Stats& solver_stats() const { return solver_.stats(); }

private:
  struct Pending {
    FlowRecord record;
    FlowDone on_done;
    std::vector<LinkId> route;
  };
  struct Sending {
    FlowId id = 0;
    double remaining = 0.0;
    double rate = 0.0;
    Time last_update;
  };

  void join(FlowId id);
  void request_resolve();
  void resolve();
  void apply_rate(FlowSolver::Slot slot, double rate);
  void on_completion_event();
  void finish_sending(FlowSolver::Slot slot);
  void sent(FlowId id);
  void arrive(FlowId id);
  void reschedule_completion();
  void publish_link(LinkId link);

  Simulator& sim_;
  std::unique_ptr<Topology> topology_;
  Router router_;
  FlowSolver solver_;
  Time setup_time_;
  std::vector<BitsPerSecond> line_rate_;
  std::vector<double> link_used_;
  std::unordered_map<int, double> class_rate_;
  std::unordered_map<FlowId, Pending> pending_;
  std::vector<Sending> sending_;
  CompletionHeap heap_;
  EventId completion_event_;
  Time completion_at_ = Time::max();
  bool resolve_pending_ = false;
  FlowId next_id_ = 1;
  Bytes delivered_;
  Counters counters_;
};

}  // namespace lynxsim::net
