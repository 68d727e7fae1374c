#pragma once
// The Pareto front of a search: configurations that no other configuration beats on both cost
// (lower is better) and goodput per GPU (higher is better).
//
// Point i is on the front when no j has cost_j <= cost_i and goodput_j >= goodput_i with one of
// the two strict. Points with zero goodput (no rate met the targets) are never on it. Equal points
// are all kept. The front is returned as indices, by ascending cost, then descending goodput, then
// index (deterministic).

#include <cstddef>
#include <span>
#include <vector>

namespace lynxsim::plan {

struct ParetoPoint {
  double cost = 0.0;
  double goodput = 0.0;
};

std::vector<std::size_t> pareto_front(std::span<const ParetoPoint> points);

}  // namespace lynxsim::plan
