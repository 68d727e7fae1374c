#include "sim/net/level_relaxation.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lynxsim::net {
namespace {

struct QueueAfter {
  template <class E>
  bool operator()(const E& a, const E& b) const {
    if (a.cls != b.cls) return a.cls > b.cls;
    if (a.key != b.key) return a.key > b.key;
    return a.link > b.link;
  }
};

// Water-filling passes before the remaining demands are sorted instead.
constexpr int kFillPasses = 8;

}  // namespace

LevelRelaxation::LevelRelaxation(std::vector<double> capacities)
    : capacity_(std::move(capacities)), on_link_(capacity_.size()), hop_on_link_(capacity_.size()) {}

void LevelRelaxation::set_tolerance(double relative) {
  if (!(relative >= 1e-12 && relative <= 1e-2)) {
    throw std::invalid_argument("LevelRelaxation: tolerance must be in [1e-12, 1e-2]");
  }
  tolerance_ = relative;
}

std::uint32_t LevelRelaxation::class_index(int cls) {
  if (mu_.size() > kMaxClassIndex && !class_ids_.contains(cls)) {
    throw std::invalid_argument("LevelRelaxation: more than 65,536 priority classes");
  }
  const auto [it, inserted] = class_ids_.emplace(cls, static_cast<std::uint32_t>(mu_.size()));
  if (inserted) {
    mu_.emplace_back(capacity_.size(), kInf);
    budget_.emplace_back(capacity_.size(), Budget{});
    class_of_.push_back(cls);
  }
  return it->second;
}

LevelRelaxation::Slot LevelRelaxation::allocate_slot(std::size_t hops) {
  if (hops > stride_) widen_routes(hops);
  if (!free_.empty()) {
    const Slot slot = free_.back();
    free_.pop_back();
    return slot;
  }
  const auto slot = static_cast<Slot>(flows_.size());
  flows_.emplace_back();
  route_.resize(route_.size() + stride_);
  pos_.resize(pos_.size() + stride_);
  return slot;
}

void LevelRelaxation::widen_routes(std::size_t stride) {
  std::vector<LinkId> route(flows_.size() * stride);
  std::vector<std::uint32_t> pos(flows_.size() * stride);
  for (std::size_t s = 0; s < flows_.size(); ++s) {
    for (std::size_t i = 0; i < flows_[s].hops; ++i) {
      route[s * stride + i] = route_[s * stride_ + i];
      pos[s * stride + i] = pos_[s * stride_ + i];
    }
  }
  route_ = std::move(route);
  pos_ = std::move(pos);
  stride_ = stride;
}

LevelRelaxation::Slot LevelRelaxation::add(const std::vector<LinkId>& route, int priority_class,
                                           double weight, double max_rate) {
  if (route.empty()) throw std::invalid_argument("LevelRelaxation::add: empty route");
  if (!(weight > 0.0)) throw std::invalid_argument("LevelRelaxation::add: weight must be positive");
  const Slot slot = allocate_slot(route.size());
  const std::size_t base = std::size_t{slot} * stride_;
  for (std::size_t i = 0; i < route.size(); ++i) {
    auto& list = on_link_[route[i]];
    route_[base + i] = route[i];
    pos_[base + i] = static_cast<std::uint32_t>(list.size());
    list.push_back(slot);
    hop_on_link_[route[i]].push_back(static_cast<std::uint32_t>(i));
  }
  const std::uint32_t ci = class_index(priority_class);
  Flow& f = flows_[slot];
  f = Flow{};
  f.weight = weight;
  f.cap_level = max_rate > 0.0 ? max_rate / weight : kInf;
  f.ci = static_cast<std::uint16_t>(ci);
  f.hops = static_cast<std::uint32_t>(route.size());
  f.fresh = true;
  f.active = true;
  refresh_minima(slot);
  ++class_count_[priority_class];
  lowest_class_ = class_count_.rbegin()->first;
  for (const LinkId l : route) enqueue(l, ci);
  return slot;
}

void LevelRelaxation::remove(Slot slot) {
  Flow& f = flows_[slot];
  if (!f.active) throw std::logic_error("LevelRelaxation::remove: flow not active");
  const auto links = route(slot);
  const std::size_t base = std::size_t{slot} * stride_;
  for (std::size_t i = 0; i < links.size(); ++i) {
    auto& list = on_link_[links[i]];
    auto& hops = hop_on_link_[links[i]];
    const Slot moved_slot = list.back();
    const std::uint32_t moved_hop = hops.back();
    list[pos_[base + i]] = moved_slot;
    hops[pos_[base + i]] = moved_hop;
    list.pop_back();
    hops.pop_back();
    if (moved_slot != slot) pos_[std::size_t{moved_slot} * stride_ + moved_hop] = pos_[base + i];
  }
  const int cls = class_of_[f.ci];
  for (const LinkId l : links) {
    enqueue(l, f.ci);
    if (f.rate > 0.0) enqueue_lower(l, cls);
  }
  if (--class_count_[cls] == 0) class_count_.erase(cls);
  if (!class_count_.empty()) lowest_class_ = class_count_.rbegin()->first;
  f.active = false;
  f.fresh = false;
  f.hops = 0;
  f.rate = 0.0;
  free_.push_back(slot);
}

void LevelRelaxation::set_capacity(LinkId link, double capacity) {
  if (!(capacity >= 0.0)) throw std::invalid_argument("LevelRelaxation: capacity must be >= 0");
  capacity_.at(link) = capacity;
  for (const auto& [cls, count] : class_count_) enqueue(link, class_index(cls));
}

void LevelRelaxation::enqueue(LinkId l, std::uint32_t ci) {
  Budget& b = budget_[ci][l];
  if (b.queued) return;
  b.queued = true;
  queue_.push_back({class_of_[ci], mu_[ci][l], l, ci});
  std::push_heap(queue_.begin(), queue_.end(), QueueAfter{});
}

void LevelRelaxation::enqueue_lower(LinkId l, int cls) {
  if (class_count_.empty() || lowest_class_ <= cls) return;
  for (auto it = class_count_.upper_bound(cls); it != class_count_.end(); ++it) {
    enqueue(l, class_ids_.at(it->first));
  }
}

const std::vector<LevelRelaxation::Slot>& LevelRelaxation::solve() {
  changed_.clear();
  if (queue_.empty()) return changed_;
  ++stats_.solves;
  while (!queue_.empty()) {
    std::pop_heap(queue_.begin(), queue_.end(), QueueAfter{});
    const Entry e = queue_.back();
    queue_.pop_back();
    budget_[e.ci][e.link].queued = false;
    relax(e.link, e.ci);
  }
  for (const Slot s : touched_) {
    Flow& f = flows_[s];
    if (!f.active) continue;
    if (f.fresh || moved(f.start_rate, f.rate)) {
      changed_.push_back(s);
    } else {
      f.rate = f.start_rate;
    }
    f.fresh = false;
  }
  stats_.flows_changed += changed_.size();
  touched_.clear();
  ++epoch_;
  return changed_;
}

void LevelRelaxation::relax(LinkId l, std::uint32_t ci) {
  ++stats_.link_updates;
  double& mu = mu_[ci][l];
  Budget& b = budget_[ci][l];
  const Fill f = water_level(l, ci);
  const double old_mu = mu;
  const bool store = moved(mu, f.level);
  if (store) mu = f.level;
  if (std::isinf(mu)) {
    b.allowed = f.bottleneck_weight;
    b.drift = 0.0;
  } else {
    b.allowed = tolerance_ * mu * f.bottleneck_weight;
    b.drift = std::abs(f.level - mu) * f.bottleneck_weight;
  }
  // A flow whose two smallest levels lie elsewhere, before and after, keeps its minima.
  for (const Slot s : on_link_[l]) {
    const Flow& g = flows_[s];
    if (g.ci != ci) continue;
    if (g.fresh || (store && !(old_mu > g.min2 && mu > g.min2))) update_flow(s, l);
  }
}

LevelRelaxation::Fill LevelRelaxation::water_level(LinkId l, std::uint32_t ci) {
  const int cls = class_of_[ci];
  double residual = capacity_[l];
  double wsum = 0.0;
  demands_.clear();
  for (const Slot s : on_link_[l]) {
    const Flow& g = flows_[s];
    if (g.ci == ci) {
      demands_.push_back({demand_without(g, l), g.weight});
      wsum += g.weight;
    } else if (class_of_[g.ci] < cls) {
      residual -= g.rate;
    }
  }
  return fill(std::max(residual, 0.0), wsum);
}

// Sets aside the demands below the running level rem / wsum until none is; the rest share rem.
LevelRelaxation::Fill LevelRelaxation::fill(double rem, double wsum) {
  std::size_t n = demands_.size();
  for (int pass = 0; pass < kFillPasses; ++pass) {
    if (n == 0) return {kInf, std::max(rem, 0.0)};
    const double level = rem / wsum;
    std::size_t kept = 0;
    double kept_weight = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const Demand d = demands_[i];
      if (d.level < level) {
        rem -= d.level * d.weight;
      } else {
        demands_[kept++] = d;
        kept_weight += d.weight;
      }
    }
    if (kept == n) return {level, wsum};
    n = kept;
    wsum = kept_weight;
  }
  std::sort(demands_.begin(), demands_.begin() + static_cast<std::ptrdiff_t>(n),
            [](const Demand& a, const Demand& b) { return a.level < b.level; });
  for (std::size_t i = 0; i < n; ++i) {
    if (demands_[i].level * wsum > rem) return {rem / wsum, wsum};
    rem -= demands_[i].level * demands_[i].weight;
    wsum -= demands_[i].weight;
  }
  return {kInf, std::max(rem, 0.0)};
}

void LevelRelaxation::refresh_minima(Slot s) {
  Flow& f = flows_[s];
  const auto& mu = mu_[f.ci];
  f.min1 = f.cap_level;
  f.min2 = kInf;
  f.arg1 = kCap;
  for (const LinkId l : route(s)) {
    const double m = mu[l];
    if (m < f.min1) {
      f.min2 = f.min1;
      f.min1 = m;
      f.arg1 = l;
    } else if (m < f.min2) {
      f.min2 = m;
    }
  }
}

// The level of l moved: g's rate and the demand g presents to its other links follow; each other
// link accumulates the change of g's contribution there (see the propagation budget above).
void LevelRelaxation::update_flow(Slot s, LinkId l) {
  Flow& g = flows_[s];
  const double old1 = g.min1;
  const double old2 = g.min2;
  const LinkId old_arg = g.arg1;
  refresh_minima(s);
  const auto links = route(s);
  for (const LinkId other : links) {
    if (other == l) continue;
    const double before = other == old_arg ? old2 : old1;
    const double after = demand_without(g, other);
    if (before != after) add_drift(other, g.ci, before, after, g.weight);
  }
  const double rate = g.weight * g.min1;
  touch(s);
  if (moved(g.rate, rate)) {
    for (const LinkId other : links) enqueue_lower(other, class_of_[g.ci]);
  }
  g.rate = rate;
}

void LevelRelaxation::add_drift(LinkId other, std::uint32_t ci, double before, double after,
                                double weight) {
  Budget& b = budget_[ci][other];
  if (b.queued) return;
  const double mu = mu_[ci][other];
  double delta = 0.0;
  if (std::isinf(mu)) {
    if (after <= before) return;
    delta = weight * (after - before);
  } else {
    delta = weight * std::abs(std::min(after, mu) - std::min(before, mu));
  }
  b.drift += delta;
  if (b.drift > b.allowed) enqueue(other, ci);
}

void LevelRelaxation::touch(Slot s) {
  Flow& g = flows_[s];
  if (g.touched == epoch_) return;
  g.touched = epoch_;
  g.start_rate = g.rate;
  touched_.push_back(s);
}

bool LevelRelaxation::moved(double a, double b) const {
  if (a == b) return false;
  if (std::isinf(a) || std::isinf(b)) return true;
  return std::abs(a - b) > tolerance_ * std::max(std::abs(a), std::abs(b));
}

}  // namespace lynxsim::net
