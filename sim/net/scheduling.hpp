#pragma once
// Plane scheduling: how the traffic classes of the flows map onto the rate solver's strict
// priority classes and weights.
//
// A flow brings two opaque numbers set by whoever starts it: its traffic class c = priority_class
// (for KV transfers the plane index: anchor 0, residual 1, ...) and an ordering key k = order_key
// (for KV transfers the request's arrival sequence; -1 when the flow has none, e.g. background
// traffic). A network offers Q classes (queues per switch port, `classes`, 1..8): traffic class c
// uses queue q = min(c, Q - 1), so with fewer queues than planes the lowest planes merge into the
// last queue. Flows of class kBackgroundClass or above (background by default) keep their class,
// below every queue, under "strict", "aging" and "request_order"; under "weighted" they use the last
// queue and under "fair" they share like every other flow. Keyed flows take the first (2^30 / Q)
// keys apart; later keys tie with the last of them.
//
// Policies (solver class s, solver weight w; the solver shares max-min fairly in proportion to w
// inside a solver class and gives strict priority to lower s):
//   strict         s = q, w = weight. Every anchor of every request before any residual.
//   request_order  s = (k + 1) Q + q for keyed flows, s = q for the others: strict priority by
//                  arrival, planes in order inside a request (a sender-side FIFO of requests).
//   weighted       ETS/DWRR on the sender's port: one solver class; queue q gets the share
//                  W_q / sum of the active queues' W (work-conserving: an idle queue's share goes to
//                  the others) and splits it equally among its flows from that sender:
//                  w = W_q / n(src, q). Exact on a single bottleneck (the sender's port); elsewhere
//                  the same weights apply where the flows meet.
//   fair           s = 0, w = weight for every flow (a network without traffic classes).
//   aging          two tiers, each in request order: first the anchors (queue 0), then the other
//                  planes; a flow of queue q > 0 that has held the network for `max_wait` without
//                  finishing is promoted into the first tier at its request's place, s = (k + 1) Q + q,
//                  ahead of every later request's anchor. So an anchor overtakes an earlier request's
//                  residual for at most max_wait: max_wait = 0 is request_order, an unbounded one is
//                  strict with arrival order inside each plane instead of fair sharing.
// Default: request_order (docs/design.md, "Plane scheduling", gives the measurements behind it).
// request_order and aging order flows by key on every link they cross, as one sender's port does;
// where flows of several senders meet (a spine, a decode host's downlink) this global order is an
// idealisation, since a switch offers `classes` queues, not one per request.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/time.hpp"

namespace lynxsim::net {

enum class SchedulingPolicy { strict, request_order, weighted, fair, aging };

// Bounds of a class weight and of a flow's weight. The solver's fair level is a capacity over summed
// weights (max_min_fill.cpp): a weight of 1e-300 overflows it to infinity and the flow never ends.
// Twelve decades keep every level finite and far from double's limits, and hold every real setting:
// IEEE 802.1Qaz ETS shares bandwidth in whole percents (ratios up to 100).
inline constexpr double kMinWeight = 1e-6;
inline constexpr double kMaxWeight = 1e6;

struct SchedulingSpec {
  SchedulingPolicy policy = SchedulingPolicy::request_order;
  int classes = 8;
  std::vector<double> weights;  // per queue (weighted); empty: all 1
  Time max_wait = Time::from_seconds(1.0);  // aging
};

std::optional<SchedulingPolicy> scheduling_policy_from(std::string_view name);
std::string_view to_string(SchedulingPolicy policy);

// Solver class and weight of a flow, given its class c, key k and weight, and (weighted) the
// number of active flows of its queue at its sender, itself included.
struct SolverPlacement {
  int solver_class = 0;
  double weight = 1.0;
};

class Scheduler {
public:
  Scheduler() = default;
  explicit Scheduler(SchedulingSpec spec);
  const SchedulingSpec& spec() const { return spec_; }
  int queue_of(int priority_class) const;
  bool keeps_class(int priority_class) const;
  double queue_weight(int queue) const;
  SolverPlacement place(int priority_class, std::int64_t order_key, double weight,
                        std::uint32_t queue_flows, bool promoted) const;

private:
  SchedulingSpec spec_;
};

}  // namespace lynxsim::net
