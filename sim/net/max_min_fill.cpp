// Progressive filling with lazily released flows, the core of FlowSolver (see flow_solver.hpp).

#include <algorithm>
#include <cmath>

#include "sim/net/flow_solver.hpp"

namespace lynxsim::net {
namespace {

struct HeapAfter {
  template <class E>
  bool operator()(const E& a, const E& b) const {
    if (a.level != b.level) return a.level > b.level;
    if (a.is_flow != b.is_flow) return a.is_flow;
    return a.id > b.id;
  }
};

}  // namespace

void FlowSolver::fill(int cls) {
  double level = 0.0;
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), HeapAfter{});
    const HeapEntry e = heap_.back();
    heap_.pop_back();
    if (e.is_flow) {
      if (flows_[e.id].frozen) continue;
      level = std::max(level, e.level);
      freeze(e.id, level, cls);
      continue;
    }
    LinkScratch& x = scratch_[e.id];
    if (!x.in_heap || e.level != x.key) continue;
    x.in_heap = false;
    if (x.unfrozen == 0) continue;
    level = std::max(level, e.level);
    if (share_of(x, level) > level * (1.0 + 1e-12)) {
      push_link(e.id, level);
    } else if (!holds_above(e.id, cls, level)) {
      saturate(e.id, cls, level);
    } else if (!x.deferred) {
      defer(e.id, level);
    } else {
      pull_above(e.id, cls, level);
      push_link(e.id, level);
    }
  }
  ++stats_.fills;
  stats_.flows_filled += set_.size();
}

void FlowSolver::enter(Slot s, int cls, double level) {
  Flow& f = flows_[s];
  f.in_set = set_epoch_;
  f.frozen = false;
  set_.push_back(s);
  for (const LinkId l : f.route) {
    LinkScratch& x = scratch_[l];
    if (x.fill_mark != fill_epoch_) {
      open_link(l, cls);
    } else {
      x.residual += f.rate;
      x.wsum += f.weight;
      ++x.unfrozen;
    }
  }
  for (const LinkId l : f.route) push_link(l, level);
  if (f.max_rate > 0.0) {
    heap_.push_back({f.max_rate / f.weight, s, true});
    std::push_heap(heap_.begin(), heap_.end(), HeapAfter{});
  }
}

void FlowSolver::open_link(LinkId l, int cls) {
  LinkScratch& x = scratch_[l];
  x.fill_mark = fill_epoch_;
  x.unfrozen = 0;
  x.wsum = 0.0;
  x.in_heap = false;
  x.deferred = false;
  double used = 0.0;
  for (const Slot o : on_link_[l]) {
    const Flow& g = flows_[o];
    if (g.cls > cls) continue;
    if (g.cls < cls || g.in_set != set_epoch_) {
      used += g.rate;
    } else if (g.frozen) {
      used += g.new_rate;
    } else {
      x.wsum += g.weight;
      ++x.unfrozen;
    }
  }
  x.residual = capacity_[l] - used;
}

void FlowSolver::push_link(LinkId l, double level) {
  LinkScratch& x = scratch_[l];
  if (x.unfrozen == 0) return;
  const double share = share_of(x, level);
  if (x.in_heap && x.key <= share) return;
  x.key = share;
  x.in_heap = true;
  heap_.push_back({share, l, false});
  std::push_heap(heap_.begin(), heap_.end(), HeapAfter{});
}

double FlowSolver::share_of(const LinkScratch& x, double level) {
  return std::max(std::max(x.residual, 0.0) / x.wsum, level);
}

bool FlowSolver::holds_above(LinkId l, int cls, double level) const {
  const double bar = level * (1.0 + tolerance_);
  for (const Slot o : on_link_[l]) {
    const Flow& g = flows_[o];
    if (g.cls == cls && g.in_set != set_epoch_ && old_level(g) > bar) return true;
  }
  return false;
}

// A link whose saturation would need a held flow above the level waits until every other link at
// this level (within half the tolerance) has saturated: its re-filled flows may be bottlenecked
// there instead, and then nothing needs to be released.
void FlowSolver::defer(LinkId l, double level) {
  LinkScratch& x = scratch_[l];
  x.deferred = true;
  x.key = level * (1.0 + 0.5 * tolerance_);
  x.in_heap = true;
  heap_.push_back({x.key, l, false});
  std::push_heap(heap_.begin(), heap_.end(), HeapAfter{});
}

// The link still saturates at `level` with held flows above that level on it: they are not really
// limited elsewhere below it, so they are released into the fill.
void FlowSolver::pull_above(LinkId l, int cls, double level) {
  const double bar = level * (1.0 + tolerance_);
  scratch_[l].deferred = false;
  for (const Slot o : on_link_[l]) {
    const Flow& g = flows_[o];
    if (g.cls == cls && g.in_set != set_epoch_ && old_level(g) > bar) enter(o, cls, level);
  }
}

// A re-filled flow slowed down on l, or a removed flow freed capacity there: the held flows at
// l's largest level (within kReleaseBand tolerances of it) may be bottlenecked there and speed
// up, so they are released into the fill. Whether l was saturated is not tested: slack left by
// earlier changes below the tolerance would otherwise never be handed out again.
void FlowSolver::pull_bottlenecked(LinkId l, int cls, double level) {
  LinkScratch& x = scratch_[l];
  if (x.pull_mark == fill_epoch_) return;
  x.pull_mark = fill_epoch_;
  double top = 0.0;
  for (const Slot o : on_link_[l]) {
    const Flow& g = flows_[o];
    if (g.cls == cls) top = std::max(top, old_level(g));
  }
  const double bar = std::max(top * (1.0 - kReleaseBand * tolerance_), level);
  for (const Slot o : on_link_[l]) {
    const Flow& g = flows_[o];
    if (g.cls == cls && g.in_set != set_epoch_ && old_level(g) >= bar) enter(o, cls, level);
  }
}

void FlowSolver::saturate(LinkId l, int cls, double level) {
  batch_.clear();
  for (const Slot o : on_link_[l]) {
    const Flow& g = flows_[o];
    if (g.in_set == set_epoch_ && !g.frozen) batch_.push_back(o);
  }
  for (std::size_t i = 0; i < batch_.size(); ++i) freeze(batch_[i], level, cls);
  push_link(l, level);
}

void FlowSolver::freeze(Slot s, double level, int cls) {
  Flow& f = flows_[s];
  f.frozen = true;
  f.new_rate = f.weight * level;
  for (const LinkId l : f.route) {
    LinkScratch& x = scratch_[l];
    x.residual -= f.new_rate;
    x.wsum -= f.weight;
    --x.unfrozen;
  }
  if (f.new_rate >= f.rate * (1.0 - tolerance_)) return;
  for (const LinkId l : f.route) pull_bottlenecked(l, cls, level);
}

}  // namespace lynxsim::net
