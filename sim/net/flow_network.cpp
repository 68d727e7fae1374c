#include "sim/net/flow_network.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "sim/core/rng.hpp"

namespace lynxsim::net {
namespace {

// The latest projected end the clock can hold (time.hpp: from_seconds stays below 9.2e18 ps).
constexpr double kClockLimitPs = 9.2e18;

// The links' goodputs, then with an engine one engine link per host (its HostId after the links).
std::vector<double> capacities_of(const Topology& t, const std::optional<TransferEngineSpec>& engine) {
  std::vector<double> c;
  c.reserve(t.num_links() + (engine ? t.num_hosts() : 0));
  for (const auto& l : t.links()) c.push_back(l.spec.goodput().value);
  if (engine) c.insert(c.end(), t.num_hosts(), engine_rate(*engine));
  return c;
}

}  // namespace

FlowNetwork::FlowNetwork(Simulator& sim, Topology topology, Time setup_time,
                         std::optional<TransferEngineSpec> engine)
    : sim_(sim),
      topology_(std::make_unique<Topology>(std::move(topology))),
      router_(*topology_),
      solver_(capacities_of(*topology_, engine)),
      relaxed_(capacities_of(*topology_, engine)),
      setup_time_(setup_time),
      has_engine_(engine.has_value()),
      link_used_(topology_->num_links(), 0.0) {
  if (setup_time < Time::zero()) throw std::invalid_argument("network setup time must be >= 0");
  for (const auto& l : topology_->links()) line_rate_.push_back(l.spec.rate);
}

FlowNetwork::~FlowNetwork() {
  if (strong_flows_ > 0) sim_.hold(-1);
}

FlowId FlowNetwork::start_flow(FlowSpec spec, FlowDone on_done) {
  const bool engine = has_engine_ && !spec.weak;
  return start(std::move(spec), std::move(on_done), setup_time_, engine);
}

FlowId FlowNetwork::start_flow_with_setup(FlowSpec spec, FlowDone on_done, Time setup_time) {
  return start(std::move(spec), std::move(on_done), setup_time, false);
}

FlowId FlowNetwork::start(FlowSpec spec, FlowDone on_done, Time setup_time, bool engine) {
  if (spec.src >= num_hosts() || spec.dst >= num_hosts()) {
    throw std::invalid_argument(fmt::format("flow '{}' (tag {}, host {} to {}): unknown host id", spec.label,
                                            spec.tag, spec.src, spec.dst));
  }
  if (spec.size.value < 0) throw std::invalid_argument("flow size must not be negative");
  if (!(spec.weight > 0.0)) throw std::invalid_argument("flow weight must be positive");
  if (spec.max_rate.value < 0.0) throw std::invalid_argument("flow max_rate must be >= 0");
  const FlowId id = next_id_++;
  std::uint64_t key_state = sim_.seed() ^ (id * 0xD1B54A32D192ED03ULL);
  Pending p{FlowRecord{}, std::move(on_done), router_.route(spec.src, spec.dst, splitmix64(key_state))};
  p.record.id = id;
  p.engine = engine;
  p.record.spec = std::move(spec);
  p.record.started_at = sim_.now();
  p.record.hops = static_cast<std::uint32_t>(p.route.size());
  for (const LinkId l : p.route) p.record.path_latency_time += topology_->link(l).spec.latency;
  sim_.bus().publish(FlowStarted{p.record});
  const bool weak = p.record.spec.weak;
  if (!weak && strong_flows_++ == 0) sim_.hold(+1);
  pending_.emplace(id, std::move(p));
  if (setup_time > Time::zero()) {
    sim_.schedule_maybe_weak(sim_.now() + setup_time, [this, id] { join(id); }, weak);
  } else {
    join(id);
  }
  return id;
}

void FlowNetwork::join(FlowId id) {
  const auto it = pending_.find(id);
  if (it == pending_.end()) return;
  Pending& p = it->second;
  p.joined = true;
  if (p.record.spec.size.value == 0 || p.route.empty()) {
    sent(id);
    return;
  }
  const auto& s = p.record.spec;
  if (auto* members = queue_members(p)) members->push_back(std::numeric_limits<FlowSolver::Slot>::max());
  const FlowSolver::Slot slot = add_to_solver(p);
  if (auto* members = queue_members(p)) members->back() = slot;
  if (slot >= sending_.size()) sending_.resize(slot + 1);
  sending_[slot] = Sending{id, s.size.as_double(), 0.0, sim_.now(), &p,
                           &class_rate_[s.priority_class]};
  p.slot = slot;
  p.sending = true;
  reweight_queue(p);
  const auto& sched = scheduler_.spec();
  if (sched.policy == SchedulingPolicy::aging && scheduler_.queue_of(s.priority_class) > 0 &&
      !scheduler_.keeps_class(s.priority_class)) {
    sim_.schedule_maybe_weak(sim_.now() + sched.max_wait, [this, id] { promote(id); }, s.weak);
  }
  request_resolve();
}

void FlowNetwork::request_resolve() {
  const bool weak = strong_flows_ == 0;
  if (resolve_pending_) {
    if (weak || !resolve_weak_) return;
    sim_.cancel(resolve_event_);
  } else {
    resolve_at_ = next_resolve_at();
  }
  resolve_pending_ = true;
  resolve_weak_ = weak;
  resolve_event_ = sim_.schedule_maybe_weak(resolve_at_, [this] { resolve(); }, weak);
}

Time FlowNetwork::next_resolve_at() const {
  const Time at = sim_.now();
  if (rate_quantum_ <= Time::zero()) return at;
  const std::int64_t q = rate_quantum_.ps();
  return Time::from_ps((at.ps() + q - 1) / q * q);
}

void FlowNetwork::resolve() {
  resolve_pending_ = false;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0 = time_recomputations_ ? Clock::now() : Clock::time_point{};
  const auto& changed = with_solver([](auto& solver) -> const auto& { return solver.solve(); });
  if (time_recomputations_) {
    counters_.recompute_wall_seconds +=
        std::chrono::duration<double>(Clock::now() - t0).count();
  }
  ++counters_.recomputations;
  for (const FlowSolver::Slot slot : changed) {
    apply_rate(slot, with_solver([slot](const auto& solver) { return solver.rate(slot); }));
  }
  reschedule_completion();
}

void FlowNetwork::apply_rate(FlowSolver::Slot slot, double rate) {
  Sending& s = sending_[slot];
  const Time now = sim_.now();
  s.remaining = std::max(0.0, s.remaining - s.rate * (now - s.last_update).seconds());
  s.last_update = now;
  const double delta = rate - s.rate;
  s.rate = rate;
  *s.class_rate += delta;
  const std::vector<LinkId>& route = s.pending->route;  // the solver's adds the engine link
  for (const LinkId l : route) link_used_[l] += delta;
  if (sim_.bus().has_subscribers<LinkLoadChanged>()) {
    for (const LinkId l : route) publish_link(l);
  }
  if (sim_.bus().has_subscribers<ClassRateChanged>()) {
    const int cls = s.pending->record.spec.priority_class;
    sim_.bus().publish(ClassRateChanged{now, cls, {std::max(0.0, *s.class_rate)}});
  }
  if (rate > 0.0 && !s.first_byte) {
    s.first_byte = true;
    s.pending->record.first_byte_at = now + s.pending->record.path_latency_time;
  }
  const double ps = rate > 0.0 ? s.remaining / rate * 1e12 : kClockLimitPs;
  if (ps < kClockLimitPs - static_cast<double>(now.ps())) {
    heap_.set(slot, now + Time::from_seconds(ps * 1e-12), s.id);
  } else {
    heap_.erase(slot);
  }
}

void FlowNetwork::publish_link(LinkId link) {
  if (!sim_.bus().has_subscribers<LinkLoadChanged>()) return;
  sim_.bus().publish(LinkLoadChanged{sim_.now(), link, {std::max(0.0, link_used_[link])},
                                     {with_solver([link](const auto& solver) {
                                       return solver.capacity(link);
                                     })}});
}

void FlowNetwork::reschedule_completion() {
  const Time next = heap_.empty() ? Time::max() : heap_.top_time();
  const bool weak = strong_flows_ == 0;
  if (next == completion_at_ && (next == Time::max() || weak == completion_weak_)) return;
  if (completion_event_.valid()) sim_.cancel(completion_event_);
  completion_event_ = EventId{};
  completion_at_ = next;
  if (next == Time::max()) return;
  ++counters_.completion_reschedules;
  completion_weak_ = weak;
  completion_event_ = sim_.schedule_maybe_weak(next, [this] { on_completion_event(); }, weak);
}

void FlowNetwork::on_completion_event() {
  completion_event_ = EventId{};
  completion_at_ = Time::max();
  while (!heap_.empty() && heap_.top_time() <= sim_.now()) finish_sending(heap_.top());
  request_resolve();
  reschedule_completion();
}

void FlowNetwork::finish_sending(FlowSolver::Slot slot) {
  const FlowId id = sending_[slot].id;
  leave_solver(slot);
  sending_[slot].remaining = 0.0;
  sent(id);
}

void FlowNetwork::leave_solver(FlowSolver::Slot slot) {
  heap_.erase(slot);
  apply_rate(slot, 0.0);
  Pending& p = *sending_[slot].pending;
  p.sending = false;
  with_solver([slot](auto& solver) { solver.remove(slot); });
  if (auto* members = queue_members(p)) {
    members->erase(std::find(members->begin(), members->end(), slot));
    reweight_queue(p);
  }
}

Bytes FlowNetwork::cancel_flow(FlowId id) {
  const auto it = pending_.find(id);
  if (it == pending_.end()) return Bytes{0};
  Pending& p = it->second;
  const Bytes size = p.record.spec.size;
  Bytes sent_bytes = size;
  if (p.sending) {
    const FlowSolver::Slot slot = p.slot;
    leave_solver(slot);
    const auto left = static_cast<std::int64_t>(std::ceil(sending_[slot].remaining));
    sent_bytes = Bytes{std::clamp<std::int64_t>(size.value - left, 0, size.value)};
    request_resolve();
    reschedule_completion();
  } else if (!p.joined) {
    sent_bytes = Bytes{0};
  }
  pending_.erase(it);
  return sent_bytes;
}

void FlowNetwork::sent(FlowId id) {
  Pending& p = pending_.at(id);
  const Time arrive_at = sim_.now() + p.record.path_latency_time;
  if (p.record.first_byte_at == Time::zero()) p.record.first_byte_at = arrive_at;
  sim_.schedule_maybe_weak(arrive_at, [this, id] { arrive(id); }, p.record.spec.weak);
}

void FlowNetwork::arrive(FlowId id) {
  const auto it = pending_.find(id);
  if (it == pending_.end()) return;
  FlowRecord record = std::move(it->second.record);
  FlowDone on_done = std::move(it->second.on_done);
  pending_.erase(it);
  if (!record.spec.weak && --strong_flows_ == 0) {
    sim_.hold(-1);
    reschedule_completion();
  }
  record.finished_at = sim_.now();
  delivered_ += record.spec.size;
  sim_.bus().publish(FlowFinished{record});
  if (on_done) on_done(record);
}

void FlowNetwork::set_link_rate(LinkId link, BitsPerSecond rate) {
  if (!(rate.value >= 0.0)) throw std::invalid_argument("link rate must be >= 0");
  line_rate_.at(link) = rate;
  const double goodput = rate.to_bytes().value * topology_->link(link).spec.efficiency;
  with_solver([&](auto& solver) { solver.set_capacity(link, goodput); });
  publish_link(link);
  request_resolve();
}

void FlowNetwork::set_rate_tolerance(double relative) {
  if (solver_.num_flows() != 0 || relaxed_.num_flows() != 0) {
    throw std::logic_error("the rate tolerance can only change while no flow is sending");
  }
  solver_.set_tolerance(relative >= kRelaxedFrom ? relative : FlowSolver::kExactTolerance);
  relaxed_.set_tolerance(relative);
  const bool relaxed = relative >= kRelaxedFrom;
  if (relaxed == use_relaxed_) return;
  use_relaxed_ = relaxed;
  for (LinkId l = 0; l < topology_->num_links(); ++l) {
    const double capacity = relaxed ? solver_.capacity(l) : relaxed_.capacity(l);
    with_solver([&](auto& solver) { solver.set_capacity(l, capacity); });
  }
  with_solver([](auto& solver) { solver.solve(); });
}

void FlowNetwork::set_rate_quantum(Time quantum) {
  if (quantum < Time::zero()) throw std::invalid_argument("the rate quantum must be >= 0");
  rate_quantum_ = quantum;
}

std::string FlowNetwork::link_name(LinkId link) const {
  if (link >= topology_->num_links()) {
    throw std::invalid_argument(fmt::format("unknown link id {}", link));
  }
  const DirectedLink& l = topology_->link(link);
  return topology_->node(l.from).name + "->" + topology_->node(l.to).name;
}

HostId FlowNetwork::place(PoolId pool_id, std::uint32_t instance, std::uint32_t rank,
                          std::uint32_t ranks_per_instance) const {
  return topology_->place(pool_id, instance, rank, ranks_per_instance);
}

}  // namespace lynxsim::net
