#include "sim/net/scheduling.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "sim/net/network.hpp"

namespace lynxsim::net {

std::optional<SchedulingPolicy> scheduling_policy_from(std::string_view name) {
  if (name == "strict") return SchedulingPolicy::strict;
  if (name == "request_order") return SchedulingPolicy::request_order;
  if (name == "weighted") return SchedulingPolicy::weighted;
  if (name == "fair") return SchedulingPolicy::fair;
  if (name == "aging") return SchedulingPolicy::aging;
  return std::nullopt;
}

std::string_view to_string(SchedulingPolicy policy) {
  switch (policy) {
    case SchedulingPolicy::strict: return "strict";
    case SchedulingPolicy::request_order: return "request_order";
    case SchedulingPolicy::weighted: return "weighted";
    case SchedulingPolicy::fair: return "fair";
    case SchedulingPolicy::aging: return "aging";
  }
  return "strict";
}

Scheduler::Scheduler(SchedulingSpec spec) : spec_(std::move(spec)) {
  if (spec_.classes < 1 || spec_.classes > 8) {
    throw std::invalid_argument("scheduling classes must be in 1..8");
  }
  for (const double w : spec_.weights) {
    if (!(w >= kMinWeight && w <= kMaxWeight)) {
      throw std::invalid_argument("scheduling weights must be in [1e-6, 1e6]");
    }
  }
  if (spec_.max_wait < Time::zero()) throw std::invalid_argument("max_wait must be >= 0");
}

int Scheduler::queue_of(int priority_class) const {
  return std::clamp(priority_class, 0, spec_.classes - 1);
}

bool Scheduler::keeps_class(int priority_class) const {
  return priority_class >= kBackgroundClass && spec_.policy != SchedulingPolicy::fair &&
         spec_.policy != SchedulingPolicy::weighted;
}

double Scheduler::queue_weight(int queue) const {
  const auto q = static_cast<std::size_t>(queue);
  if (spec_.weights.empty()) return 1.0;
  return q < spec_.weights.size() ? spec_.weights[q] : spec_.weights.back();
}

SolverPlacement Scheduler::place(int priority_class, std::int64_t order_key, double weight,
                                 std::uint32_t queue_flows, bool promoted) const {
  constexpr int kLowest = 1 << 30;
  if (keeps_class(priority_class)) {
    if (spec_.policy == SchedulingPolicy::strict) return {priority_class, weight};
    return {kLowest + std::min(priority_class - kBackgroundClass, kLowest - 1), weight};
  }
  const int q = queue_of(priority_class);
  switch (spec_.policy) {
    case SchedulingPolicy::strict:
      return {q, weight};
    case SchedulingPolicy::aging: {
      constexpr int kResidualTier = kLowest / 2;
      const int tier = q == 0 || promoted ? 0 : kResidualTier;
      const std::int64_t k = std::clamp<std::int64_t>(order_key, -1, kResidualTier / spec_.classes - 2);
      return {tier + static_cast<int>((k + 1) * spec_.classes + q), weight};
    }
    case SchedulingPolicy::fair:
      return {0, weight};
    case SchedulingPolicy::weighted:
      return {0, queue_weight(q) / std::max<std::uint32_t>(queue_flows, 1)};
    case SchedulingPolicy::request_order: {
      if (order_key < 0) return {q, weight};
      const std::int64_t k = std::min<std::int64_t>(order_key, kLowest / spec_.classes - 2);
      return {static_cast<int>((k + 1) * spec_.classes + q), weight};
    }
  }
  return {q, weight};
}

}  // namespace lynxsim::net
