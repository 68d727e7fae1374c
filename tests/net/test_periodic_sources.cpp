#include <doctest/doctest.h>

#include "net_test_util.hpp"

// Repeating bandwidth traces and background senders play while flows of the run are pending and
// stop with them (network_factory.hpp): the run ends at its last flow's arrival.

using namespace lynxsim;
using namespace lynxsim::net;
using namespace lynxsim::net::test;

namespace {

// A link alternating 10 and 30 Gb/s in halves of `period`: 20 Mb per ms of period on average.
NetworkSpec alternating_link(Time period) {
  NetworkSpec spec = single_link(80, 1, 1.0, Time::zero());
  const Time half = Time::from_ps(period.ps() / 2);
  spec.traces.push_back({"link", {{Time::zero(), {10e9}}, {half, {30e9}}}, true});
  return spec;
}

}  // namespace

TEST_CASE("a repeating trace ends with the last flow and gives its closed-form transfer time") {
  for (const Time period : {Time::from_us(2), Time::from_ms(1), Time::from_ms(100)}) {
    CAPTURE(period.ps());
    Simulator sim;
    auto net = make_flow_network(sim, alternating_link(period));
    Finished done;
    // 250 MB = 2000 Mb: exactly 100 ms at the mean 20 Gb/s, the last byte at the end of a period.
    net->start_flow(flow(0, 1, 250'000'000), done.sink());
    sim.run();
    REQUIRE(done.records.size() == 1);
    const Time expected = Time::from_ms(100) + Time::from_us(1);
    CHECK(std::llabs(done.records[0].finished_at.ps() - expected.ps()) <= 2);
    CHECK(sim.now() == done.records[0].finished_at);
  }
}

TEST_CASE("a repeating trace with no flow to serve ends the run at once") {
  Simulator sim;
  auto net = make_flow_network(sim, alternating_link(Time::from_ms(1)));
  CHECK(sim.run() == 0);
  CHECK(sim.now() == Time::zero());
}

TEST_CASE("background senders stop with the last flow of the run") {
  Simulator sim;
  NetworkSpec spec = single_link(80, 0, 1.0, Time::zero());
  spec.background.push_back({"prefill", "decode", {40e9}, Time::from_ms(1), Time::from_ms(1), false,
                             Time::zero(), Time::from_seconds(86400.0), 0, "bg"});
  spec.traces.push_back({"link", {{Time::zero(), {80e9}}, {Time::from_us(500), {80e9}}}, true});
  auto net = make_flow_network(sim, spec);
  Finished done;
  net->start_flow(flow(0, 1, 1'000'000'000, 0), done.sink());
  sim.run();
  REQUIRE(done.records.size() == 1);
  // Background at 40 Gb/s for the first ms of every 2 ms: the flow gets 40 then 80 Gb/s, 120 Mb per
  // 2 ms; 66 periods carry 7920 Mb, the rest takes 1 ms at 40 and 0.5 ms at 80 Gb/s.
  CHECK(done.records[0].finished_at.seconds() == doctest::Approx(0.1335).epsilon(1e-9));
  CHECK(sim.now() == done.records[0].finished_at);
}

TEST_CASE("a background sender whose flows carry no bytes still advances the clock") {
  Simulator sim;
  NetworkSpec spec = single_link(80, 0, 1.0, Time::zero());
  spec.background.push_back({"prefill", "decode", {1e3}, std::nullopt, Time::zero(), false,
                             Time::zero(), Time::from_ms(1), 0, "bg"});
  auto net = make_flow_network(sim, spec);
  Finished done;
  sim.schedule_at(Time::from_ms(2), [&] { net->start_flow(flow(0, 1, 1000, 0), done.sink()); });
  sim.run();
  CHECK(done.records.size() == 1);
}

TEST_CASE("a background sender from a host to itself is refused") {
  Simulator sim;
  NetworkSpec spec = single_link(80, 0, 1.0, Time::zero());
  spec.background.push_back({"prefill", "prefill", {1e9}, std::nullopt, Time::zero(), false,
                             Time::zero(), Time::from_ms(1), 0, "bg"});
  CHECK_THROWS_AS(make_flow_network(sim, spec), std::invalid_argument);
}

TEST_CASE("a flow stalled by a repeating outage waits for the trace to restore its link") {
  Simulator sim;
  NetworkSpec spec = single_link(80, 0, 1.0, Time::zero());
  spec.traces.push_back({"link", {{Time::zero(), {0.0}}, {Time::from_ms(10), {80e9}}}, true});
  auto net = make_flow_network(sim, spec);
  Finished done;
  // 8 Gb at 80 Gb/s in the second 10 ms of every 20 ms: 0.8 Gb per period, ten periods.
  net->start_flow(flow(0, 1, 1'000'000'000), done.sink());
  sim.run();
  REQUIRE(done.records.size() == 1);
  CHECK(std::llabs(done.records[0].finished_at.ps() - Time::from_ms(200).ps()) <= 2);
  CHECK(sim.now() == done.records[0].finished_at);
}
