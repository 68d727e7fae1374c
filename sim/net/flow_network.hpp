#pragma once
// The flow-level Network: flows on routes of a Topology, rates from the FlowSolver (exact) or, at a
// coarse rate tolerance, from LevelRelaxation; one pending completion event.
//
// Per transmitting flow the network keeps the bytes still to send, its current rate and the time of
// its last update; when the solver changes a flow's rate, the bytes sent since the last update at the
// old rate are subtracted first (clamped at zero), and the projected end of sending is
// now + remaining / rate, rounded once to the picosecond. Projected ends live in an indexed heap; the
// simulator holds a single completion event for the earliest one, moved whenever the earliest
// changes; a flow without rate, or whose end the clock could not hold (int64 ps), has no projected
// end until its rate changes. At that event the flow's remaining bytes are by definition zero; it leaves the solver and
// its last byte arrives a path latency later. Bytes delivered are counted from the flow sizes, so
// they equal the bytes sent exactly.
//
// Changes at one instant (many flows joining, completions, capacity steps) are coalesced: they mark
// the solver and one zero-delay resolve event re-solves once. See network.hpp for the flow timeline.
//
// Cancellation (cancel_flow) removes a flow wherever it is: in setup (nothing sent; its join finds
// it gone), sending (the bytes sent at the rates in force up to now are size - remaining, rounded
// up to whole bytes remaining; it leaves the solver like a finished flow and the others are
// re-solved), or with its last byte in flight (all of it sent; its arrival finds it gone).
//
// Rate quantum Delta (default zero: re-solve at the instant of every change). With Delta > 0 a
// change at time t schedules the re-solve at the next grid point T = ceil(t / Delta) * Delta of the
// simulator clock (T = t on a grid point), and every change in (T - Delta, T] shares that re-solve.
// Until T the rates in force stay as they were: a flow that joins at t holds no bandwidth and starts
// sending at T; a flow whose last byte left at t frees its bandwidth at t, but the others receive
// it at T; a capacity step at t shapes the rates from T on (until then the link carries the old
// rates, possibly above its new capacity). So every change takes effect less than Delta late, and
// a lone flow that joins at t finishes exactly T - t later than without the quantum. Rates still
// change only at events and are integrated exactly between them, so completion times remain exact
// for the rates in force and the bytes delivered equal the bytes sent. The quantum bounds the
// re-solves to one per Delta; changes batched into one re-solve share its work where their repairs
// overlap, which pays off once a quantum gathers tens of changes.
// The grid depends only on the clock, so runs remain deterministic.
//
// Weak flows (background traffic) schedule weak events. While a flow that is not weak is pending,
// the network holds the simulator (Simulator::hold), so the weak events of a bandwidth trace keep
// playing even when every such flow waits at rate 0 for the trace to restore its link.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/net/completion_heap.hpp"
#include "sim/net/flow_solver.hpp"
#include "sim/net/level_relaxation.hpp"
#include "sim/net/network.hpp"
#include "sim/net/router.hpp"
#include "sim/net/scheduling.hpp"
#include "sim/net/topology.hpp"
#include "sim/net/transfer_engine.hpp"

namespace lynxsim::net {

class FlowNetwork final : public Network {
public:
  // With an engine, every transfer (a flow started by start_flow, not weak) also crosses its
  // source host's engine, one more solver link per host of capacity engine_rate
  // (transfer_engine.hpp); flows started by start_flow_with_setup do not.
  FlowNetwork(Simulator& sim, Topology topology, Time setup_time,
              std::optional<TransferEngineSpec> engine = std::nullopt);
  ~FlowNetwork() override;
  FlowNetwork(const FlowNetwork&) = delete;
  FlowNetwork& operator=(const FlowNetwork&) = delete;

  FlowId start_flow(FlowSpec spec, FlowDone on_done) override;
  FlowId start_flow_with_setup(FlowSpec spec, FlowDone on_done, Time setup_time) override;
  Bytes cancel_flow(FlowId id) override;
  std::size_t active_flows() const override { return pending_.size(); }
  Bytes bytes_delivered() const override { return delivered_; }
  std::size_t num_hosts() const override { return topology_->num_hosts(); }
  const std::string& host_name(HostId host) const override { return topology_->host_name(host); }
  // Directed links of a flow started and not yet finished (its ECMP route, fixed at start_flow).
  const std::vector<LinkId>& route_of(FlowId id) const { return pending_.at(id).route; }
  HostId host_by_name(std::string_view name) const override {
    return topology_->host_by_name(name);
  }
  HostId place(PoolId pool, std::uint32_t instance, std::uint32_t rank,
               std::uint32_t ranks_per_instance) const override;
  std::string link_name(LinkId link) const override;

  // Sets the line rate of one directed link (goodput = efficiency * rate) from now on.
  void set_link_rate(LinkId link, BitsPerSecond rate);
  BitsPerSecond link_rate(LinkId link) const { return line_rate_.at(link); }
  // Current summed rate of the flows on a directed link.
  BytesPerSecond link_load(LinkId link) const { return {link_used_.at(link)}; }
  // Relative tolerance of the rates, in [1e-12, 1e-2]. Below kRelaxedFrom the exact FlowSolver
  // computes them, always at its own precision FlowSolver::kExactTolerance (coarser settings of it
  // drift, see flow_solver.hpp); from it on the cheaper LevelRelaxation (see level_relaxation.hpp).
  // Only while no flow is sending.
  static constexpr double kRelaxedFrom = 1e-6;
  void set_rate_tolerance(double relative);
  // Rate quantum Delta (see above), >= 0; zero re-solves at every change. Applies to the changes
  // made from now on.
  void set_rate_quantum(Time quantum);
  Time rate_quantum() const { return rate_quantum_; }
  // Plane scheduling policy (scheduling.hpp); only while no flow is sending.
  void set_scheduling(SchedulingSpec spec);
  const SchedulingSpec& scheduling() const { return scheduler_.spec(); }
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
  // Whether recompute_wall_seconds is measured (two clock reads per re-solve); off by default.
  void set_time_recomputations(bool on) { time_recomputations_ = on; }
  const FlowSolver::Stats& solver_stats() const { return solver_.stats(); }
  const LevelRelaxation::Stats& relaxation_stats() const { return relaxed_.stats(); }

private:
  struct Pending {
    FlowRecord record;
    FlowDone on_done;
    std::vector<LinkId> route;
    FlowSolver::Slot slot = 0;
    bool sending = false;
    bool promoted = false;
    bool joined = false;
    bool engine = false;  // crosses its source host's engine
  };
  struct Sending {
    FlowId id = 0;
    double remaining = 0.0;
    double rate = 0.0;
    Time last_update;
    Pending* pending = nullptr;      // stable: unordered_map nodes do not move
    double* class_rate = nullptr;    // entry of class_rate_, stable likewise
    bool first_byte = false;         // has held a positive rate
  };

  FlowId start(FlowSpec spec, FlowDone on_done, Time setup_time, bool engine);
  void join(FlowId id);
  SolverPlacement placement(const Pending& p) const;
  FlowSolver::Slot add_to_solver(Pending& p);
  void reinsert(FlowSolver::Slot slot);
  void reweight_queue(const Pending& p);
  void promote(FlowId id);
  std::vector<FlowSolver::Slot>* queue_members(const Pending& p);
  void request_resolve();
  Time next_resolve_at() const;
  void resolve();
  void apply_rate(FlowSolver::Slot slot, double rate);
  void on_completion_event();
  void finish_sending(FlowSolver::Slot slot);
  void leave_solver(FlowSolver::Slot slot);
  void sent(FlowId id);
  void arrive(FlowId id);
  void reschedule_completion();
  void publish_link(LinkId link);
  // Calls f with the solver in use (the relaxed one from kRelaxedFrom, else the exact one).
  template <class F>
  decltype(auto) with_solver(F&& f) {
    return use_relaxed_ ? f(relaxed_) : f(solver_);
  }
  template <class F>
  decltype(auto) with_solver(F&& f) const {
    return use_relaxed_ ? f(relaxed_) : f(solver_);
  }

  Simulator& sim_;
  std::unique_ptr<Topology> topology_;
  Router router_;
  FlowSolver solver_;
  LevelRelaxation relaxed_;
  bool use_relaxed_ = false;
  Time setup_time_;
  bool has_engine_ = false;
  std::vector<BitsPerSecond> line_rate_;
  std::vector<double> link_used_;
  std::unordered_map<int, double> class_rate_;
  std::unordered_map<FlowId, Pending> pending_;
  std::vector<Sending> sending_;
  CompletionHeap heap_;
  EventId completion_event_;
  Time completion_at_ = Time::max();
  bool completion_weak_ = false;
  std::size_t strong_flows_ = 0;  // pending flows that are not weak
  EventId resolve_event_;
  Time resolve_at_;
  bool resolve_weak_ = false;
  Time rate_quantum_ = Time::zero();
  Scheduler scheduler_;
  std::map<std::pair<HostId, int>, std::vector<FlowSolver::Slot>> queue_members_;
  bool resolve_pending_ = false;
  FlowId next_id_ = 1;
  Bytes delivered_;
  Counters counters_;
  bool time_recomputations_ = false;
};

}  // namespace lynxsim::net
