#include <doctest/doctest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/simulator.hpp"

using namespace lynxsim;

namespace {
struct Ping {
  int value;
};

std::vector<std::int64_t> chain_run(std::uint64_t seed) {
  Simulator sim(seed);
  std::vector<std::int64_t> times;
  std::function<void(int)> step = [&](int left) {
    times.push_back(sim.now().ps());
    if (left == 0) return;
    const auto d = Time::from_ps(static_cast<std::int64_t>(sim.rng("arrivals").uniform_int(100)));
    sim.schedule_in(d, [&step, left] { step(left - 1); });
  };
  sim.schedule_at(Time::zero(), [&] { step(50); });
  sim.run();
  return times;
}
}  // namespace

TEST_CASE("the clock follows executed events and run_until stops at the limit") {
  Simulator sim;
  std::vector<std::int64_t> seen;
  sim.schedule_at(Time::from_ps(100), [&] { seen.push_back(sim.now().ps()); });
  sim.schedule_at(Time::from_ps(300), [&] { seen.push_back(sim.now().ps()); });
  CHECK(sim.run_until(Time::from_ps(200)) == 1);
  CHECK(sim.now() == Time::from_ps(200));
  CHECK(sim.run() == 1);
  CHECK(seen == std::vector<std::int64_t>{100, 300});
  CHECK_THROWS_AS(sim.schedule_at(Time::from_ps(10), [] {}), std::logic_error);
}

TEST_CASE("equal seeds give identical runs; other seeds differ") {
  CHECK(chain_run(7) == chain_run(7));
  CHECK(chain_run(7) != chain_run(8));
}

TEST_CASE("named streams are independent of creation order") {
  Simulator a(3);
  Simulator b(3);
  const double a_x = a.rng("x").uniform01();
  (void)b.rng("y").uniform01();
  CHECK(b.rng("x").uniform01() == a_x);
}

TEST_CASE("observers receive published events in order") {
  Simulator sim;
  std::vector<int> got;
  sim.bus().subscribe<Ping>([&](const Ping& p) { got.push_back(p.value); });
  sim.bus().publish(Ping{1});
  sim.bus().publish(Ping{2});
  CHECK(got == std::vector<int>{1, 2});
  CHECK(sim.bus().has_subscribers<Ping>());
}

TEST_CASE("distributions have the right moments") {
  RngStream r(11);
  const int n = 200000;
  double sum = 0, sum2 = 0, gsum = 0, esum = 0;
  for (int i = 0; i < n; ++i) {
    const double x = r.normal(1.0, 2.0);
    sum += x;
    sum2 += x * x;
    gsum += r.gamma(3.0, 2.0);
    esum += r.exponential(4.0);
  }
  const double mean = sum / n;
  CHECK(mean == doctest::Approx(1.0).epsilon(0.02));
  CHECK(sum2 / n - mean * mean == doctest::Approx(4.0).epsilon(0.02));
  CHECK(gsum / n == doctest::Approx(6.0).epsilon(0.02));
  CHECK(esum / n == doctest::Approx(0.25).epsilon(0.02));
  CHECK(RngStream(5).next_u64() == RngStream(5).next_u64());
}

TEST_CASE("weak events fire while strong work is pending and never keep a run alive") {
  Simulator sim;
  std::vector<std::int64_t> fired;
  std::function<void()> tick = [&] {
    fired.push_back(sim.now().ps());
    sim.schedule_weak_at(sim.now() + Time::from_ps(10), tick);
  };
  sim.schedule_weak_at(Time::zero(), tick);
  sim.schedule_at(Time::from_ps(25), [&] { fired.push_back(-1); });
  CHECK(sim.run() == 4);
  CHECK(fired == std::vector<std::int64_t>{0, 10, 20, -1});
  CHECK(sim.now() == Time::from_ps(25));
  CHECK(sim.events_pending() == 1);
  CHECK(sim.run() == 0);
  CHECK(sim.run_until(Time::from_ps(45)) == 2);
  CHECK(fired.back() == 40);
}

TEST_CASE("a cancelled strong event no longer keeps the run alive") {
  Simulator sim;
  int weak_fired = 0;
  sim.schedule_weak_at(Time::from_ps(5), [&] { ++weak_fired; });
  const EventId strong = sim.schedule_at(Time::from_ps(10), [] {});
  CHECK(sim.cancel(strong));
  CHECK(sim.run() == 0);
  CHECK(weak_fired == 0);
}
