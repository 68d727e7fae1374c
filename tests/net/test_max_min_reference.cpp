#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <vector>

#include "sim/core/rng.hpp"
#include "sim/net/flow_solver.hpp"

using namespace lynxsim;
using namespace lynxsim::net;

namespace {

struct RefFlow {
  std::vector<LinkId> route;
  int cls = 0;
  double weight = 1.0;
  double cap = 0.0;
};

// Textbook progressive filling, class by class, written independently of FlowSolver: at each step
// the level is the smallest of every link's residual / unfrozen weight and every unfrozen cap.
void fill_class(const std::vector<RefFlow>& flows, int cls, std::vector<double>& residual,
                std::vector<double>& rate) {
  std::vector<bool> frozen(flows.size(), true);
  for (std::size_t i = 0; i < flows.size(); ++i) frozen[i] = flows[i].cls != cls;
  for (;;) {
    std::vector<double> wsum(residual.size(), 0.0);
    double level = 1e300;
    for (std::size_t i = 0; i < flows.size(); ++i) {
      if (frozen[i]) continue;
      for (const LinkId l : flows[i].route) wsum[l] += flows[i].weight;
      if (flows[i].cap > 0.0) level = std::min(level, flows[i].cap / flows[i].weight);
    }
    for (std::size_t l = 0; l < residual.size(); ++l) {
      if (wsum[l] > 0.0) level = std::min(level, std::max(residual[l], 0.0) / wsum[l]);
    }
    if (level == 1e300) return;
    std::vector<std::size_t> now;
    for (std::size_t i = 0; i < flows.size(); ++i) {
      if (frozen[i]) continue;
      bool stop = flows[i].cap > 0.0 && flows[i].cap / flows[i].weight <= level * (1 + 1e-12);
      for (const LinkId l : flows[i].route) {
        stop = stop || std::max(residual[l], 0.0) / wsum[l] <= level * (1 + 1e-12);
      }
      if (stop) now.push_back(i);
    }
    for (const std::size_t i : now) {
      frozen[i] = true;
      rate[i] = flows[i].weight * level;
      for (const LinkId l : flows[i].route) residual[l] -= rate[i];
    }
  }
}

std::vector<double> reference_rates(const std::vector<RefFlow>& flows,
                                    const std::vector<double>& caps) {
  std::vector<double> rate(flows.size(), 0.0);
  std::vector<double> residual = caps;
  std::map<int, bool> classes;
  for (const auto& f : flows) classes[f.cls] = true;
  for (const auto& [cls, unused] : classes) fill_class(flows, cls, residual, rate);
  return rate;
}

RefFlow random_flow(RngStream& rng, std::size_t links) {
  RefFlow f;
  const auto hops = 1 + rng.uniform_int(5);
  while (f.route.size() < hops) {
    const auto l = static_cast<LinkId>(rng.uniform_int(links));
    if (std::find(f.route.begin(), f.route.end(), l) == f.route.end()) f.route.push_back(l);
  }
  f.cls = static_cast<int>(rng.uniform_int(3));
  f.weight = rng.uniform(0.5, 4.0);
  f.cap = rng.bernoulli(0.25) ? rng.uniform(1.0, 30.0) : 0.0;
  return f;
}

// Random arrivals, departures and capacity changes; after each solve the incremental rates are
// compared with the reference. Returns the largest error relative to the largest capacity.
double worst_error(std::uint64_t seed, double tolerance, int steps) {
  RngStream rng(seed);
  const std::size_t links = 24;
  std::vector<double> caps;
  for (std::size_t l = 0; l < links; ++l) caps.push_back(rng.uniform(20.0, 100.0));
  FlowSolver solver(caps);
  solver.set_tolerance(tolerance);
  std::vector<RefFlow> live;
  std::vector<FlowSolver::Slot> slots;
  double worst = 0.0;
  for (int step = 0; step < steps; ++step) {
    const double u = rng.uniform01();
    if (live.size() < 4 || (u < 0.5 && live.size() < 80)) {
      live.push_back(random_flow(rng, links));
      const auto& f = live.back();
      slots.push_back(solver.add(f.route, f.cls, f.weight, f.cap));
    } else if (u < 0.6) {
      const auto l = static_cast<LinkId>(rng.uniform_int(links));
      caps[l] = rng.uniform(10.0, 100.0);
      solver.set_capacity(l, caps[l]);
    } else {
      const auto i = static_cast<long>(rng.uniform_int(live.size()));
      solver.remove(slots[static_cast<std::size_t>(i)]);
      live.erase(live.begin() + i);
      slots.erase(slots.begin() + i);
    }
    solver.solve();
    const auto expected = reference_rates(live, caps);
    for (std::size_t i = 0; i < live.size(); ++i) {
      worst = std::max(worst, std::abs(solver.rate(slots[i]) - expected[i]) / 100.0);
    }
  }
  return worst;
}

}  // namespace

TEST_CASE("incremental rates equal textbook progressive filling with priorities, weights, caps") {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) CHECK(worst_error(seed, 1e-9, 400) < 1e-7);
}

TEST_CASE("a coarse solver tolerance keeps rates close to the exact max-min allocation") {
  for (std::uint64_t seed = 11; seed <= 13; ++seed) CHECK(worst_error(seed, 1e-3, 300) < 2e-2);
}

TEST_CASE("the solver rejects a tolerance outside its valid range") {
  FlowSolver solver({10.0});
  CHECK_THROWS_AS(solver.set_tolerance(0.0), std::invalid_argument);
  CHECK_THROWS_AS(solver.set_tolerance(0.5), std::invalid_argument);
}
