#include "sim/plan/pareto.hpp"

#include <algorithm>
#include <numeric>

namespace lynxsim::plan {
namespace {

bool dominates(const ParetoPoint& a, const ParetoPoint& b) {
  return a.cost <= b.cost && a.goodput >= b.goodput && (a.cost < b.cost || a.goodput > b.goodput);
}

}  // namespace

std::vector<std::size_t> pareto_front(std::span<const ParetoPoint> points) {
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].goodput <= 0.0) continue;
    const bool beaten = std::any_of(points.begin(), points.end(),
                                    [&](const ParetoPoint& p) { return dominates(p, points[i]); });
    if (!beaten) front.push_back(i);
  }
  std::sort(front.begin(), front.end(), [&](std::size_t a, std::size_t b) {
    if (points[a].cost != points[b].cost) return points[a].cost < points[b].cost;
    if (points[a].goodput != points[b].goodput) return points[a].goodput > points[b].goodput;
    return a < b;
  });
  return front;
}

}  // namespace lynxsim::plan
