#pragma once
// Flow-level bandwidth sharing: weighted max-min fairness inside a priority class, strict priority
// across classes, recomputed locally.
//
// Model. Directed link l has capacity C_l (goodput, bytes/s). Flow f crosses the links of its route,
// belongs to class c_f (lower = higher priority), has weight w_f > 0 and an optional rate cap m_f.
// Class c sees on each link the residual R_l(c) = C_l - sum of rates of classes < c, and shares it
// by weighted max-min fairness: the unique feasible allocation in which every flow f either runs at
// its cap or has a bottleneck link, i.e. a link where class c saturates R_l(c) and where f's
// normalised rate x_f / w_f is the largest among class-c flows. Progressive filling computes it:
// raise a common level L, give every unfrozen flow w_f * L, freeze the flows of the first link (or
// cap) that saturates, repeat.
//
// Locality. For each class in priority order the solver runs ONE progressive filling over a growing
// set A of flows, seeded with the class's new flows, the class's flows at the largest level on
// each link a removed flow crossed (they may be bottlenecked where capacity was freed), and
// all the class's flows on links whose capacity or higher-class load changed (marked links); every
// other flow is held at its current rate
// (it is assumed frozen at its old level x_g / w_g). A held flow g joins A, unfrozen at the current
// level L, when the filling finds evidence that its old rate is no longer max-min:
//   (P) a link is about to saturate at L while a held flow on it has a level above L (1 + tau): g
//       is not limited below L elsewhere, so it must share this link. Such a link is deferred once
//       to L (1 + tau / 2) so that its flows can first saturate on another link at the same level
//       (then nothing is released);
//   (D) a flow of A freezes below its old rate on a link: the held flows at that link's largest
//       level may be bottlenecked there and speed up.
// Held flows below the current level are final: progressive filling never revisits lower levels,
// and a change can only alter levels at or above the lowest level it touches. When the filling
// ends, every flow of A has a bottleneck, and every held flow kept a saturated link on which it is
// the largest (else P or D would have released it), so the allocation is the max-min one. In the
// worst case A grows to the connected component, which is the full recomputation. Cost: each flow
// enters A at most once per class; each entry and freeze touches its route's links and a heap of
// link fair shares (O(log links)), and each link of A scans its flow list when it is opened.
//
// Tolerance. The fixed point is exact up to a relative tolerance tau (default 1e-12): a held flow is
// released by P only when its level exceeds L (1 + tau), by D only when a rate fell by more than
// tau relative (and then only the held flows within kReleaseBand * tau of the link's top level),
// and a re-filled rate whose relative change is at most tau is left untouched (its flow is not
// rescheduled and does not mark its links for lower classes). The deviations tau leaves do not
// stay within tau: a link's residual absorbs the deviations of all its held flows (n of them: up to
// n tau on the few re-filled flows), and a flow left below its link's top level by more than D's
// band is not released when that link frees capacity, so its error then grows with every change.
// Hence the band of kReleaseBand = 1000 tolerances, and FlowNetwork runs this solver at 1e-12
// (kExactTolerance) whatever tolerance below its relaxed range it is given. Measured on k=8
// fat-trees (completion times against SimGrid's max-min solver, tests/net/simgrid/): with a band of
// one tolerance, tau = 1e-9 drifted to 1.9e-3 (5,000 flows started together) and even 1e-12 to
// 2.4e-8 (10,000 flows); with the band and 1e-12, 2.5e-10 and 9.9e-11.
// For coarse tolerances FlowNetwork uses LevelRelaxation (level_relaxation.hpp), whose work follows
// the links whose fair level moves.
//
// Numerics: rates are doubles; a link's residual is recomputed from the current rates when the
// filling first opens it (no accumulated drift). The heap holds at most one live entry per link, a
// lower bound of its fair share: freezing a flow only raises shares, so a popped entry whose share
// has grown is pushed back (lazy update) instead of re-pushing every link of every frozen flow.

#include <cstdint>
#include <map>
#include <vector>

#include "sim/net/network.hpp"

namespace lynxsim::net {

class FlowSolver {
public:
  using Slot = std::uint32_t;

  struct Stats {
    std::uint64_t solves = 0;          // solve() calls that had pending changes
    std::uint64_t fills = 0;           // progressive fillings run
    std::uint64_t flows_filled = 0;    // sum of |A| over fillings
    std::uint64_t flows_changed = 0;   // rates changed by more than the tolerance
  };

  explicit FlowSolver(std::vector<double> capacities);

  // route must be non-empty; weight > 0; max_rate 0 = no cap. The new flow starts at rate 0.
  Slot add(std::vector<LinkId> route, int priority_class, double weight, double max_rate);
  void remove(Slot slot);
  void set_capacity(LinkId link, double capacity);
  double capacity(LinkId link) const { return capacity_[link]; }
  // Relative tolerance of the fixed point (see the header essay); default kExactTolerance. Must be
  // in [1e-12, 1e-2].
  static constexpr double kExactTolerance = 1e-12;
  // D releases the held flows within kReleaseBand * tolerance of a link's top level.
  static constexpr double kReleaseBand = 1000.0;
  void set_tolerance(double relative);
  double tolerance() const { return tolerance_; }

  // Applies pending changes; returns the flows whose rate changed (read the new one with rate()).
  const std::vector<Slot>& solve();
  bool has_pending_changes() const {
    return !dirty_.empty() || !freed_.empty() || !added_.empty();
  }
  double rate(Slot slot) const { return flows_[slot].rate; }
  const std::vector<LinkId>& route(Slot slot) const { return flows_[slot].route; }
  std::size_t num_flows() const { return flows_.size() - free_.size(); }
  const Stats& stats() const { return stats_; }

private:
  struct Flow {
    std::vector<LinkId> route;
    std::vector<std::uint32_t> pos;  // index of this flow in on_link_[route[i]]
    int cls = 0;
    double weight = 1.0;
    double max_rate = 0.0;
    double rate = 0.0;
    double new_rate = 0.0;
    bool active = false;
    bool frozen = false;
    std::uint32_t in_set = 0;  // == set_epoch_ when in A
  };
  struct LinkScratch {
    double residual = 0.0;
    double wsum = 0.0;
    std::uint32_t unfrozen = 0;
    std::uint32_t fill_mark = 0;
    std::uint32_t seed_mark = 0;
    std::uint32_t pull_mark = 0;
    double key = 0.0;
    bool in_heap = false;
    bool deferred = false;
  };
  struct Dirty {
    LinkId link;
    int from_class;
  };
  struct Freed {
    LinkId link;
    int cls;
  };
  struct HeapEntry {
    double level;
    std::uint32_t id;       // link, or flow slot when is_flow
    bool is_flow;
  };

  void repair_class(int cls);
  void collect_seeds(int cls);
  void fill(int cls);
  void enter(Slot s, int cls, double level);
  void open_link(LinkId l, int cls);
  void push_link(LinkId l, double level);
  static double share_of(const LinkScratch& x, double level);
  bool holds_above(LinkId l, int cls, double level) const;
  void defer(LinkId l, double level);
  void pull_above(LinkId l, int cls, double level);
  void pull_bottlenecked(LinkId l, int cls, double level);
  void saturate(LinkId l, int cls, double level);
  void freeze(Slot f, double level, int cls);
  bool changed_much(const Flow& f) const;
  double old_level(const Flow& f) const { return f.rate / f.weight; }
  void commit(int cls);
  void mark_route(const Flow& f, int from_class);

  std::vector<Flow> flows_;
  std::vector<Slot> free_;
  std::vector<double> capacity_;
  std::vector<std::vector<Slot>> on_link_;
  std::vector<std::vector<std::uint32_t>> hop_on_link_;  // index of the link in each listed flow's route
  std::vector<LinkScratch> scratch_;
  std::vector<Dirty> dirty_;
  std::vector<Freed> freed_;
  std::vector<Slot> added_;
  std::map<int, std::uint32_t> class_count_;
  std::vector<Slot> changed_;
  std::vector<HeapEntry> heap_;
  std::vector<Slot> set_;
  std::vector<Slot> batch_;
  std::uint32_t set_epoch_ = 0;
  std::uint32_t fill_epoch_ = 0;
  std::uint32_t seed_epoch_ = 0;
  double tolerance_ = kExactTolerance;
  Stats stats_;
};

}  // namespace lynxsim::net
