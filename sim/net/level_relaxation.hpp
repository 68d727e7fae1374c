#pragma once
// Approximate max-min rates by relaxing per-link fair levels, for coarse solver tolerances.
//
// Model: as FlowSolver (weighted max-min inside a priority class, strict priority across classes,
// optional per-flow caps). Level of flow f: x_f = rate / w_f. Every link l keeps, per class c, a
// fair level mu_l (+inf when the class's flows on l are all limited elsewhere). Given the levels of
// the other links, flow f's demand seen by l is d_f = min(m_f / w_f, min over its other links of
// mu), and mu_l is the water level of l:  sum over class-c flows of w_f min(d_f, mu_l) = R_l(c),
// where R_l(c) = C_l - (rates of the higher classes on l); mu_l = +inf when sum w_f d_f <= R_l(c).
// A flow runs at w_f min(m_f / w_f, min over its route of mu). At a fixed point every flow is
// capped or reaches its minimum on a saturated link where its level is the largest: the bottleneck
// condition, so the fixed point is the max-min allocation of FlowSolver.
//
// Repair: a change (flow joins or leaves, capacity step) queues the touched links; a queued link
// recomputes its level from its flows' demands (one scan, then water filling over the ~10 demands:
// the flows below the running level are set aside until none is, a sort only for long lists). A
// level that moves by more than the relative tolerance tau is stored and its flows' rates and
// demands follow. Links are taken class by class in priority order and, inside a class, lowest
// level first, as progressive filling would.
//
// Propagation budget. When l is relaxed it records W_l, the weight of its flows at its level
// (those not limited elsewhere). A demand change of a flow g moves g's contribution to l by
// delta = w_g (min(d_new, mu_l) - min(d_old, mu_l)), which moves the level l would compute by about
// delta / W_l. So l accumulates |delta| as drift and is queued only once the drift exceeds
// tau * mu_l * W_l, a level move of tau; a relaxation that keeps the stored level restarts the drift
// at the gap it left, |new - stored| * W_l. A link at level +inf records its slack instead,
// R_l(c) - sum w_f d_f, accumulates only demand increases and is queued once they exceed it. So the
// work follows the links whose level moves by about tau, and sub-tau changes that add up along the
// way are not lost. The lower classes of a link are queued when a flow on it changes its rate by
// more than tau. Each flow caches the smallest and second smallest of its cap level and route
// levels, so the demand it presents to a link is read in O(1). Per flow the data read by the scans
// (minima, weight, rate) sits in one cache line; routes lie in one array at a fixed stride.
// In a k=16 fat-tree carrying 10,000 flows one change relaxes ~80 link levels at tau = 1e-3 and
// ~30 at 1e-2 (means over network_bench.hpp's run), a sixth of what queuing a link on every
// tau-relative move of one flow's contribution took, at the same accuracy; at 1e-9 the relaxation
// converges to the exact allocation but does no less work than FlowSolver.
//
// Accuracy: the repair stops at an approximate fixed point (every level within about tau of the
// one its link would compute from the stored levels); a reported rate moves only when it differs
// from w_f min(...) by more than tau relative, so rates are within a few tau of the exact
// allocation (errors can add up along a chain of bottlenecks) and a link may be oversubscribed by
// about tau of its capacity. Bytes are unaffected: the network integrates whatever rates it is
// given. For exact rates use FlowSolver.

#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <vector>

#include "sim/net/network.hpp"

namespace lynxsim::net {

class LevelRelaxation {
public:
  using Slot = std::uint32_t;

  struct Stats {
    std::uint64_t solves = 0;
    std::uint64_t link_updates = 0;  // link levels recomputed
    std::uint64_t flows_changed = 0;
  };

  explicit LevelRelaxation(std::vector<double> capacities);

  // Relative tolerance tau, in [1e-12, 1e-2]; default 1e-9.
  void set_tolerance(double relative);
  double tolerance() const { return tolerance_; }

  Slot add(const std::vector<LinkId>& route, int priority_class, double weight, double max_rate);
  void remove(Slot slot);
  void set_capacity(LinkId link, double capacity);
  double capacity(LinkId link) const { return capacity_[link]; }

  const std::vector<Slot>& solve();
  bool has_pending_changes() const { return !queue_.empty(); }
  double rate(Slot slot) const { return flows_[slot].rate; }
  std::span<const LinkId> route(Slot slot) const {
    return {route_.data() + std::size_t{slot} * stride_, flows_[slot].hops};
  }
  std::size_t num_flows() const { return flows_.size() - free_.size(); }
  const Stats& stats() const { return stats_; }

private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  static constexpr LinkId kCap = std::numeric_limits<LinkId>::max();
  static constexpr std::size_t kMaxClassIndex = std::numeric_limits<std::uint16_t>::max();

  struct alignas(64) Flow {  // one cache line: all a scan or an update of the flow reads
    double min1 = kInf;       // smallest of the cap level and the levels of the route
    double min2 = kInf;       // the second smallest
    double weight = 1.0;
    double cap_level = kInf;
    double rate = 0.0;
    double start_rate = 0.0;
    LinkId arg1 = kCap;       // where min1 is attained (kCap: the cap)
    std::uint32_t touched = 0;
    std::uint32_t hops = 0;
    std::uint16_t ci = 0;
    bool fresh = false;
    bool active = false;
  };
  static_assert(sizeof(Flow) == 64);
  struct Budget {  // one link in one class
    double allowed = 0.0;  // drift allowed before the link is queued
    double drift = 0.0;
    bool queued = false;
  };
  struct Entry {
    int cls;
    double key;
    LinkId link;
    std::uint32_t ci;
  };
  struct Demand {
    double level;
    double weight;
  };
  struct Fill {
    double level;
    double bottleneck_weight;  // W_l, or the slack when level is +inf
  };

  std::uint32_t class_index(int cls);
  Slot allocate_slot(std::size_t hops);
  void widen_routes(std::size_t stride);
  void enqueue(LinkId l, std::uint32_t ci);
  void enqueue_lower(LinkId l, int cls);
  void relax(LinkId l, std::uint32_t ci);
  Fill water_level(LinkId l, std::uint32_t ci);
  Fill fill(double residual, double wsum);
  static double demand_without(const Flow& f, LinkId l) { return f.arg1 == l ? f.min2 : f.min1; }
  void refresh_minima(Slot s);
  void update_flow(Slot s, LinkId l);
  void add_drift(LinkId other, std::uint32_t ci, double before, double after, double weight);
  void touch(Slot s);
  bool moved(double a, double b) const;

  std::vector<Flow> flows_;
  std::vector<LinkId> route_;  // stride_ entries per slot
  std::vector<std::uint32_t> pos_;  // index of the slot in on_link_ of each route link
  std::size_t stride_ = 0;
  std::vector<Slot> free_;
  std::vector<double> capacity_;
  std::vector<std::vector<Slot>> on_link_;
  std::vector<std::vector<std::uint32_t>> hop_on_link_;  // index of the link in each listed flow's route
  std::map<int, std::uint32_t> class_ids_;
  std::map<int, std::uint32_t> class_count_;
  int lowest_class_ = 0;  // largest class number with flows
  std::vector<int> class_of_;
  std::vector<std::vector<double>> mu_;  // per class, per link
  std::vector<std::vector<Budget>> budget_;
  std::vector<Entry> queue_;
  std::vector<Demand> demands_;
  std::vector<Slot> touched_;
  std::vector<Slot> changed_;
  std::uint32_t epoch_ = 1;
  double tolerance_ = 1e-9;
  Stats stats_;
};

}  // namespace lynxsim::net
