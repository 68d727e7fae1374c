#include <doctest/doctest.h>

#include <cmath>

#include "net_test_util.hpp"
#include "sim/net/flow_network.hpp"
#include "sim/net/link_faults.hpp"

using namespace lynxsim;
using namespace lynxsim::net;

namespace {

// A lone flow of 1 GB on an idle 8 Gb/s link (1 s of sending, no latency, no setup) under `faults`:
// when it finishes, in seconds.
double finish_under(const std::vector<LinkFaultSpec>& faults, std::uint64_t seed = 1) {
  Simulator sim(seed);
  NetworkSpec spec = test::single_link(8.0, 0.0, 1.0, Time::zero());
  spec.faults = faults;
  auto net = make_flow_network(sim, spec);
  test::Finished done;
  const auto id = net->start_flow(test::flow(0, 1, 1'000'000'000), done.sink());
  sim.run();
  for (LinkId l = 0; l < net->topology().num_links(); ++l) CHECK(net->link_rate(l).value == 8e9);
  return done.at_s(id);
}

LinkFaultSpec outage(double at_s, double for_s) {
  LinkFaultSpec f;
  f.link = "link";
  f.down_at = Time::from_seconds(at_s);
  f.down_for = Time::from_seconds(for_s);
  return f;
}

}  // namespace

TEST_CASE("an outage during a transfer delays it by exactly its length") {
  CHECK(finish_under({}) == doctest::Approx(1.0));
  CHECK(finish_under({outage(0.25, 0.5)}) == doctest::Approx(1.5));
  CHECK(finish_under({outage(2.0, 0.5)}) == doctest::Approx(1.0));
}

TEST_CASE("a flap of k outages delays a transfer it spans by k outage lengths") {
  LinkFaultSpec flap = outage(0.1, 0.05);
  flap.every = Time::from_ms(200);
  flap.count = 3;
  CHECK(finish_under({flap}) == doctest::Approx(1.15));
}

TEST_CASE("overlapping outages of one link keep it down for their union") {
  CHECK(finish_under({outage(0.2, 0.3), outage(0.4, 0.3)}) == doctest::Approx(1.5));
  CHECK(finish_under({outage(0.2, 0.6), outage(0.3, 0.1)}) == doctest::Approx(1.6));
}

TEST_CASE("random outages follow the seed") {
  LinkFaultSpec random = outage(0.0, 0.01);
  random.failures_per_s = 20.0;
  random.until = Time::from_seconds(10.0);
  const double a = finish_under({random}, 3);
  CHECK(a == finish_under({random}, 3));
  CHECK(a != finish_under({random}, 4));
  CHECK(a > 1.01);
  CHECK(a < 2.0);
}

TEST_CASE("impossible faults are named") {
  LinkFaultSpec f = outage(0.0, 0.0);
  CHECK(link_fault_problem(f).has_value());
  f = outage(0.0, 0.1);
  f.count = 2;
  CHECK(link_fault_problem(f).has_value());
  f.every = Time::from_ms(100);
  CHECK(link_fault_problem(f).has_value());
  f.every = Time::from_ms(101);
  CHECK_FALSE(link_fault_problem(f).has_value());
}
