#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "sim/core/rng.hpp"
#include "sim/core/simulator.hpp"
#include "sim/net/flow_network.hpp"
#include "sim/net/flow_solver.hpp"
#include "sim/net/level_relaxation.hpp"
#include "sim/net/network_bench.hpp"
#include "net_test_util.hpp"

using namespace lynxsim;
using namespace lynxsim::net;

TEST_CASE("relaxed levels reproduce the parking lot in closed form") {
  const double c = 1000.0;
  LevelRelaxation relax(std::vector<double>(3, c));
  const auto long_flow = relax.add({0, 1, 2}, 0, 1.0, 0.0);
  std::vector<LevelRelaxation::Slot> shorts;
  for (LinkId l = 0; l < 3; ++l) {
    for (LinkId j = 0; j <= l; ++j) shorts.push_back(relax.add({l}, 0, 1.0, 0.0));
  }
  relax.solve();
  CHECK(relax.rate(long_flow) == doctest::Approx(c / 4.0));
  CHECK(relax.rate(shorts[0]) == doctest::Approx(3.0 * c / 4.0));
  CHECK(relax.rate(shorts.back()) == doctest::Approx(c / 4.0));
}

TEST_CASE("relaxed levels honour strict priority and caps") {
  LevelRelaxation relax({100.0, 40.0});
  const auto high = relax.add({0, 1}, 0, 1.0, 0.0);
  const auto low_a = relax.add({0}, 1, 1.0, 5.0);
  const auto low_b = relax.add({0}, 1, 3.0, 0.0);
  relax.solve();
  CHECK(relax.rate(high) == doctest::Approx(40.0));
  CHECK(relax.rate(low_a) == doctest::Approx(5.0));
  CHECK(relax.rate(low_b) == doctest::Approx(55.0));
  relax.remove(high);
  relax.solve();
  CHECK(relax.rate(low_b) == doctest::Approx(95.0));
}

namespace {

using Live = std::vector<std::tuple<std::vector<LinkId>, int, double, double>>;

// Largest |relaxed - exact| / 100 over a random sequence of arrivals, departures and capacity
// steps; the exact rates come from a fresh FlowSolver holding only the live flows.
double worst_gap(std::uint64_t seed, double tolerance, int steps) {
  RngStream rng(seed);
  const std::size_t links = 24;
  std::vector<double> caps;
  for (std::size_t l = 0; l < links; ++l) caps.push_back(rng.uniform(20.0, 100.0));
  LevelRelaxation relax(caps);
  relax.set_tolerance(tolerance);
  Live live;
  std::vector<LevelRelaxation::Slot> slots;
  double worst = 0.0;
  for (int step = 0; step < steps; ++step) {
    const double u = rng.uniform01();
    if (live.size() < 4 || (u < 0.5 && live.size() < 80)) {
      std::vector<LinkId> route;
      const auto hops = 1 + rng.uniform_int(5);
      while (route.size() < hops) {
        const auto l = static_cast<LinkId>(rng.uniform_int(links));
        if (std::find(route.begin(), route.end(), l) == route.end()) route.push_back(l);
      }
      const int cls = static_cast<int>(rng.uniform_int(3));
      const double w = rng.uniform(0.5, 4.0);
      const double cap = rng.bernoulli(0.25) ? rng.uniform(1.0, 30.0) : 0.0;
      live.emplace_back(route, cls, w, cap);
      slots.push_back(relax.add(route, cls, w, cap));
    } else if (u < 0.6) {
      const auto l = static_cast<LinkId>(rng.uniform_int(links));
      caps[l] = rng.uniform(10.0, 100.0);
      relax.set_capacity(l, caps[l]);
    } else {
      const auto i = static_cast<long>(rng.uniform_int(live.size()));
      relax.remove(slots[static_cast<std::size_t>(i)]);
      live.erase(live.begin() + i);
      slots.erase(slots.begin() + i);
    }
    relax.solve();
    FlowSolver full(caps);
    std::vector<FlowSolver::Slot> full_slots;
    for (const auto& [route, cls, w, cap] : live) full_slots.push_back(full.add(route, cls, w, cap));
    full.solve();
    for (std::size_t i = 0; i < live.size(); ++i) {
      worst = std::max(worst, std::abs(relax.rate(slots[i]) - full.rate(full_slots[i])) / 100.0);
    }
  }
  return worst;
}

}  // namespace

TEST_CASE("at the default tolerance relaxed levels equal a full exact recomputation") {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) CHECK(worst_gap(seed, 1e-9, 400) < 1e-7);
}

TEST_CASE("at a coarse tolerance relaxed rates stay within a few tolerances of the exact ones") {
  for (std::uint64_t seed = 21; seed <= 23; ++seed) {
    CHECK(worst_gap(seed, 1e-3, 400) < 5e-3);
    CHECK(worst_gap(seed, 1e-2, 400) < 5e-2);
  }
}

TEST_CASE("the relaxed network conserves bytes exactly; the tolerance is fixed while flows send") {
  NetworkBenchConfig config;
  config.fat_tree_k = 4;
  config.concurrent = 40;
  config.arrivals = 300;
  for (const double tau : {1e-2, 1e-3, 1e-9}) {
    config.rate_tolerance = tau;
    const auto r = run_network_bench(config);
    CHECK(r.flows_finished == 300);
    CHECK(r.bytes_conserved);
  }
  Simulator sim(1);
  auto net = make_flow_network(sim, test::single_link(8.0, 0.0, 1.0, Time::zero()));
  CHECK_THROWS_AS(net->set_rate_tolerance(0.5), std::invalid_argument);
}

TEST_CASE("two flows on one link finish at the closed-form times under the relaxed solver") {
  Simulator sim(1);
  auto spec = test::single_link(8.0, 0.0, 1.0, Time::zero());
  auto net = make_flow_network(sim, spec);
  net->set_rate_tolerance(1e-3);
  test::Finished done;
  const auto a = net->start_flow(test::flow(0, 1, 1'000'000'000), done.sink());
  const auto b = net->start_flow(test::flow(0, 1, 500'000'000), done.sink());
  CHECK_THROWS_AS(net->set_rate_tolerance(1e-9), std::logic_error);
  sim.run();
  CHECK(done.at_s(b) == doctest::Approx(1.0));
  CHECK(done.at_s(a) == doctest::Approx(1.5));
}
