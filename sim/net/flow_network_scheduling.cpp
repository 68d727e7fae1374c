// The scheduling policy's side of FlowNetwork (see scheduling.hpp): where a flow enters the solver,
// the per-sender queue weights of "weighted", and the promotion of "aging".

#include <algorithm>
#include <stdexcept>

#include "sim/net/flow_network.hpp"

namespace lynxsim::net {

void FlowNetwork::set_scheduling(SchedulingSpec spec) {
  if (solver_.num_flows() != 0 || relaxed_.num_flows() != 0) {
    throw std::logic_error("the scheduling policy can only change while no flow is sending");
  }
  scheduler_ = Scheduler(std::move(spec));
  queue_members_.clear();
}

std::vector<FlowSolver::Slot>* FlowNetwork::queue_members(const Pending& p) {
  if (scheduler_.spec().policy != SchedulingPolicy::weighted) return nullptr;
  const auto& s = p.record.spec;
  return &queue_members_[{s.src, scheduler_.queue_of(s.priority_class)}];
}

SolverPlacement FlowNetwork::placement(const Pending& p) const {
  const auto& s = p.record.spec;
  std::uint32_t members = 1;
  if (scheduler_.spec().policy == SchedulingPolicy::weighted) {
    const auto it = queue_members_.find({s.src, scheduler_.queue_of(s.priority_class)});
    if (it != queue_members_.end()) members = static_cast<std::uint32_t>(it->second.size());
  }
  return scheduler_.place(s.priority_class, s.order_key, s.weight, members, p.promoted);
}

FlowSolver::Slot FlowNetwork::add_to_solver(Pending& p) {
  const SolverPlacement at = placement(p);
  const double cap = p.record.spec.max_rate.to_bytes().value;
  if (!p.engine) {
    return with_solver([&](auto& solver) { return solver.add(p.route, at.solver_class, at.weight, cap); });
  }
  std::vector<LinkId> route = p.route;
  route.push_back(static_cast<LinkId>(topology_->num_links()) + p.record.spec.src);
  return with_solver([&](auto& solver) { return solver.add(route, at.solver_class, at.weight, cap); });
}

// Moves a sending flow to its current placement: the bytes sent so far are accounted at the old
// rate, the flow leaves the solver and re-enters it at rate zero; the next resolve sets its rate.
void FlowNetwork::reinsert(FlowSolver::Slot slot) {
  heap_.erase(slot);
  apply_rate(slot, 0.0);
  Sending moved = sending_[slot];
  Pending& p = *moved.pending;
  with_solver([slot](auto& solver) { solver.remove(slot); });
  const FlowSolver::Slot to = add_to_solver(p);
  if (to >= sending_.size()) sending_.resize(to + 1);
  sending_[to] = moved;
  p.slot = to;
  if (auto* members = queue_members(p)) std::replace(members->begin(), members->end(), slot, to);
  request_resolve();
}

void FlowNetwork::reweight_queue(const Pending& p) {
  auto* members = queue_members(p);
  if (members == nullptr) return;
  const std::vector<FlowSolver::Slot> slots = *members;
  for (const FlowSolver::Slot s : slots) {
    if (s != p.slot || !p.sending) reinsert(s);
  }
}

void FlowNetwork::promote(FlowId id) {
  const auto it = pending_.find(id);
  if (it == pending_.end() || !it->second.sending || it->second.promoted) return;
  it->second.promoted = true;
  reinsert(it->second.slot);
}

}  // namespace lynxsim::net
