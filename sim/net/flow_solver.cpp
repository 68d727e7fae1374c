#include "sim/net/flow_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace lynxsim::net {

FlowSolver::FlowSolver(std::vector<double> capacities)
    : capacity_(std::move(capacities)),
      on_link_(capacity_.size()),
      hop_on_link_(capacity_.size()),
      scratch_(capacity_.size()) {}

FlowSolver::Slot FlowSolver::add(std::vector<LinkId> route, int priority_class, double weight,
                                 double max_rate) {
  if (route.empty()) throw std::invalid_argument("FlowSolver::add: empty route");
  if (!(weight > 0.0)) throw std::invalid_argument("FlowSolver::add: weight must be positive");
  Slot slot;
  if (free_.empty()) {
    slot = static_cast<Slot>(flows_.size());
    flows_.emplace_back();
  } else {
    slot = free_.back();
    free_.pop_back();
  }
  Flow& f = flows_[slot];
  f.route = std::move(route);
  f.pos.resize(f.route.size());
  for (std::size_t i = 0; i < f.route.size(); ++i) {
    auto& list = on_link_[f.route[i]];
    f.pos[i] = static_cast<std::uint32_t>(list.size());
    list.push_back(slot);
    hop_on_link_[f.route[i]].push_back(static_cast<std::uint32_t>(i));
  }
  f.cls = priority_class;
  f.weight = weight;
  f.max_rate = max_rate;
  f.rate = 0.0;
  f.active = true;
  ++class_count_[priority_class];
  added_.push_back(slot);
  return slot;
}

void FlowSolver::remove(Slot slot) {
  Flow& f = flows_[slot];
  if (!f.active) throw std::logic_error("FlowSolver::remove: flow not active");
  for (std::size_t i = 0; i < f.route.size(); ++i) {
    auto& list = on_link_[f.route[i]];
    auto& hops = hop_on_link_[f.route[i]];
    const Slot moved = list.back();
    const std::uint32_t moved_hop = hops.back();
    list[f.pos[i]] = moved;
    hops[f.pos[i]] = moved_hop;
    list.pop_back();
    hops.pop_back();
    if (moved != slot) flows_[moved].pos[moved_hop] = f.pos[i];
  }
  for (const LinkId l : f.route) freed_.push_back({l, f.cls});
  mark_route(f, f.cls + 1);
  if (--class_count_[f.cls] == 0) class_count_.erase(f.cls);
  f.active = false;
  f.rate = 0.0;
  f.route.clear();
  free_.push_back(slot);
}

void FlowSolver::set_capacity(LinkId link, double capacity) {
  if (!(capacity >= 0.0)) throw std::invalid_argument("FlowSolver: capacity must be >= 0");
  capacity_.at(link) = capacity;
  dirty_.push_back({link, std::numeric_limits<int>::min()});
}

void FlowSolver::set_tolerance(double relative) {
  if (!(relative >= 1e-12 && relative <= 1e-2)) {
    throw std::invalid_argument("FlowSolver: tolerance must be in [1e-12, 1e-2]");
  }
  tolerance_ = relative;
}

void FlowSolver::mark_route(const Flow& f, int from_class) {
  for (const LinkId l : f.route) dirty_.push_back({l, from_class});
}

const std::vector<FlowSolver::Slot>& FlowSolver::solve() {
  changed_.clear();
  if (!has_pending_changes()) return changed_;
  ++stats_.solves;
  int lowest_dirty = std::numeric_limits<int>::max();
  for (const auto& d : dirty_) lowest_dirty = std::min(lowest_dirty, d.from_class);
  for (const auto& d : freed_) lowest_dirty = std::min(lowest_dirty, d.cls);
  for (const Slot s : added_) lowest_dirty = std::min(lowest_dirty, flows_[s].cls);
  std::vector<int> classes;
  for (const auto& [cls, count] : class_count_) {
    if (cls >= lowest_dirty) classes.push_back(cls);
  }
  for (const int cls : classes) repair_class(cls);
  dirty_.clear();
  freed_.clear();
  added_.clear();
  return changed_;
}

void FlowSolver::collect_seeds(int cls) {
  ++seed_epoch_;
  for (std::size_t i = 0; i < dirty_.size(); ++i) {
    const Dirty d = dirty_[i];
    if (d.from_class > cls || scratch_[d.link].seed_mark == seed_epoch_) continue;
    scratch_[d.link].seed_mark = seed_epoch_;
    for (const Slot s : on_link_[d.link]) {
      if (flows_[s].cls == cls && flows_[s].in_set != set_epoch_) enter(s, cls, 0.0);
    }
  }
  for (const Slot s : added_) {
    const Flow& f = flows_[s];
    if (f.active && f.cls == cls && f.in_set != set_epoch_) enter(s, cls, 0.0);
  }
  for (const Freed& d : freed_) {
    if (d.cls != cls || scratch_[d.link].seed_mark == seed_epoch_) continue;
    pull_bottlenecked(d.link, cls, 0.0);
  }
}

void FlowSolver::repair_class(int cls) {
  ++set_epoch_;
  ++fill_epoch_;
  set_.clear();
  heap_.clear();
  collect_seeds(cls);
  if (set_.empty()) return;
  fill(cls);
  commit(cls);
}

void FlowSolver::commit(int cls) {
  for (const Slot s : set_) {
    Flow& f = flows_[s];
    if (!changed_much(f)) continue;
    f.rate = f.new_rate;
    changed_.push_back(s);
    ++stats_.flows_changed;
    mark_route(f, cls + 1);
  }
  ++set_epoch_;
}

bool FlowSolver::changed_much(const Flow& f) const {
  const double scale = std::max(std::abs(f.new_rate), std::abs(f.rate));
  return std::abs(f.new_rate - f.rate) > tolerance_ * scale;
}

}  // namespace lynxsim::net
