#include <doctest/doctest.h>

#include <map>

#include "sim/core/rng.hpp"
#include "sim/net/flow_solver.hpp"

using namespace lynxsim;
using namespace lynxsim::net;

TEST_CASE("parking lot: the long flow gets the tightest fair share, short flows the rest") {
  const int k = 4;
  const double c = 1000.0;
  FlowSolver solver(std::vector<double>(k, c));
  std::vector<LinkId> all;
  for (LinkId l = 0; l < k; ++l) all.push_back(l);
  const auto long_flow = solver.add(all, 0, 1.0, 0.0);
  std::map<LinkId, std::vector<FlowSolver::Slot>> shorts;
  for (LinkId l = 0; l < k; ++l) {
    for (LinkId j = 0; j <= l; ++j) shorts[l].push_back(solver.add({l}, 0, 1.0, 0.0));
  }
  solver.solve();
  const double long_rate = c / (k + 1);
  CHECK(solver.rate(long_flow) == doctest::Approx(long_rate));
  for (const auto& [l, slots] : shorts) {
    for (const auto s : slots) {
      CHECK(solver.rate(s) == doctest::Approx((c - long_rate) / static_cast<double>(l + 1)));
    }
  }
}

TEST_CASE("the classic parking lot with one short flow per link shares every link in halves") {
  FlowSolver solver(std::vector<double>(3, 10.0));
  const auto long_flow = solver.add({0, 1, 2}, 0, 1.0, 0.0);
  std::vector<FlowSolver::Slot> shorts;
  for (LinkId l = 0; l < 3; ++l) shorts.push_back(solver.add({l}, 0, 1.0, 0.0));
  solver.solve();
  CHECK(solver.rate(long_flow) == doctest::Approx(5.0));
  for (const auto s : shorts) CHECK(solver.rate(s) == doctest::Approx(5.0));
}

TEST_CASE("strict priority: the low class receives exactly the capacity the high class leaves") {
  FlowSolver solver({100.0, 40.0});
  const auto high = solver.add({0, 1}, 0, 1.0, 0.0);
  const auto low_a = solver.add({0}, 1, 1.0, 0.0);
  const auto low_b = solver.add({0}, 1, 1.0, 0.0);
  solver.solve();
  CHECK(solver.rate(high) == doctest::Approx(40.0));
  CHECK(solver.rate(low_a) + solver.rate(low_b) == doctest::Approx(60.0));
  CHECK(solver.rate(low_a) == doctest::Approx(30.0));
  solver.remove(high);
  solver.solve();
  CHECK(solver.rate(low_a) == doctest::Approx(50.0));
}

TEST_CASE("a rate cap frees capacity for the other flows of the class") {
  FlowSolver solver({100.0});
  const auto capped = solver.add({0}, 0, 1.0, 10.0);
  const auto free_flow = solver.add({0}, 0, 1.0, 0.0);
  solver.solve();
  CHECK(solver.rate(capped) == doctest::Approx(10.0));
  CHECK(solver.rate(free_flow) == doctest::Approx(90.0));
}

namespace {

std::vector<double> fresh_rates(const std::vector<double>& caps,
                                const std::map<std::uint32_t, std::tuple<std::vector<LinkId>, int,
                                                                         double, double>>& live,
                                std::map<std::uint32_t, std::uint32_t>& slot_of) {
  FlowSolver full(caps);
  for (const auto& [id, f] : live) {
    slot_of[id] = full.add(std::get<0>(f), std::get<1>(f), std::get<2>(f), std::get<3>(f));
  }
  full.solve();
  std::vector<double> out;
  for (const auto& [id, f] : live) out.push_back(full.rate(slot_of[id]));
  return out;
}

}  // namespace

TEST_CASE("local repair equals a full recomputation after every change") {
  RngStream rng(7);
  const std::size_t links = 30;
  std::vector<double> caps;
  for (std::size_t l = 0; l < links; ++l) caps.push_back(rng.uniform(10.0, 100.0));
  FlowSolver solver(caps);
  std::map<std::uint32_t, std::tuple<std::vector<LinkId>, int, double, double>> live;
  std::map<std::uint32_t, FlowSolver::Slot> slot;
  std::uint32_t next = 0;
  for (int step = 0; step < 400; ++step) {
    if (live.size() < 5 || (rng.uniform01() < 0.55 && live.size() < 60)) {
      std::vector<LinkId> route;
      const auto hops = 1 + rng.uniform_int(4);
      while (route.size() < hops) {
        const auto l = static_cast<LinkId>(rng.uniform_int(links));
        if (std::find(route.begin(), route.end(), l) == route.end()) route.push_back(l);
      }
      const int cls = static_cast<int>(rng.uniform_int(3));
      const double w = 1.0 + static_cast<double>(rng.uniform_int(3));
      const double cap = rng.bernoulli(0.2) ? rng.uniform(1.0, 20.0) : 0.0;
      live[next] = {route, cls, w, cap};
      slot[next++] = solver.add(route, cls, w, cap);
    } else if (rng.bernoulli(0.1)) {
      const auto l = static_cast<LinkId>(rng.uniform_int(links));
      caps[l] = rng.uniform(5.0, 100.0);
      solver.set_capacity(l, caps[l]);
    } else {
      auto it = std::next(live.begin(), static_cast<long>(rng.uniform_int(live.size())));
      solver.remove(slot[it->first]);
      live.erase(it);
    }
    solver.solve();
    std::map<std::uint32_t, std::uint32_t> full_slot;
    const auto expected = fresh_rates(caps, live, full_slot);
    std::size_t i = 0;
    for (const auto& [id, f] : live) {
      CHECK(solver.rate(slot[id]) == doctest::Approx(expected[i++]).epsilon(1e-7));
    }
  }
  CHECK(solver.stats().flows_filled > 0);
}
