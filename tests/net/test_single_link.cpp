#include <doctest/doctest.h>

#include "net_test_util.hpp"

using namespace lynxsim;
using namespace lynxsim::net;
using namespace lynxsim::net::test;

TEST_CASE("a lone flow takes setup + latency + bytes / (efficiency * rate)") {
  Simulator sim;
  auto net = make_network(sim, single_link(100, 5, 0.8, Time::from_ms(1)));
  Finished done;
  net->start_flow(flow(0, 1, 1'000'000'000), done.sink());
  sim.run();
  REQUIRE(done.records.size() == 1);
  CHECK(done.records[0].finished_at.seconds() == doctest::Approx(1e-3 + 5e-6 + 0.1).epsilon(1e-12));
  CHECK(done.records[0].first_byte_at == Time::from_ms(1) + Time::from_us(5));
  CHECK(net->bytes_delivered() == Bytes{1'000'000'000});
  CHECK(net->active_flows() == 0);
}

TEST_CASE("a zero-byte flow completes after setup + latency") {
  Simulator sim;
  auto net = make_network(sim, single_link(100, 5, 1.0, Time::from_us(20)));
  Finished done;
  net->start_flow(flow(0, 1, 0), done.sink());
  sim.run();
  REQUIRE(done.records.size() == 1);
  CHECK(done.records[0].finished_at == Time::from_us(25));
}

TEST_CASE("n equal flows in one class finish together at n times the lone time") {
  for (int n : {1, 2, 5}) {
    Simulator sim;
    auto net = make_network(sim, single_link(80, 0, 1.0, Time::zero()));
    Finished done;
    for (int i = 0; i < n; ++i) net->start_flow(flow(0, 1, 1'000'000'000), done.sink());
    sim.run();
    REQUIRE(done.records.size() == static_cast<std::size_t>(n));
    for (const auto& r : done.records) CHECK(r.finished_at.seconds() == doctest::Approx(0.1 * n));
  }
}

TEST_CASE("a low-priority flow gets nothing while a high-priority flow is active") {
  Simulator sim;
  auto net = make_network(sim, single_link(80, 0, 1.0, Time::zero()));
  Finished done;
  const FlowId low = net->start_flow(flow(0, 1, 1'000'000'000, 1), done.sink());
  sim.run_until(Time::from_ms(50));
  const FlowId high = net->start_flow(flow(0, 1, 1'000'000'000, 0), done.sink());
  sim.run();
  CHECK(done.at_s(high) == doctest::Approx(0.15));
  CHECK(done.at_s(low) == doctest::Approx(0.2));
  REQUIRE(done.records.size() == 2);
  CHECK(done.records[0].id == high);
}

TEST_CASE("flows in the reverse direction do not share the forward link") {
  Simulator sim;
  auto net = make_network(sim, single_link(80, 0, 1.0, Time::zero()));
  Finished done;
  net->start_flow(flow(0, 1, 1'000'000'000), done.sink());
  net->start_flow(flow(1, 0, 1'000'000'000), done.sink());
  sim.run();
  for (const auto& r : done.records) CHECK(r.finished_at.seconds() == doctest::Approx(0.1));
}

TEST_CASE("weighted sharing gives rates proportional to the weights") {
  Simulator sim;
  auto net = make_network(sim, single_link(80, 0, 1.0, Time::zero()));
  Finished done;
  const FlowId heavy = net->start_flow(flow(0, 1, 750'000'000, 0, 3.0), done.sink());
  const FlowId light = net->start_flow(flow(0, 1, 750'000'000, 0, 1.0), done.sink());
  sim.run();
  CHECK(done.at_s(heavy) == doctest::Approx(0.1));
  CHECK(done.at_s(light) == doctest::Approx(0.15));
}
