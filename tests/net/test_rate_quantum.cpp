#include <doctest/doctest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "net_test_util.hpp"
#include "sim/net/network_bench.hpp"
#include "sim/scenario/topology_json.hpp"

using namespace lynxsim;
using namespace lynxsim::net;
using namespace lynxsim::scenario;
using namespace lynxsim::net::test;

namespace {

// One 8 Gb/s link (1e9 bytes/s), no latency, no setup; rates re-solved on a 10 us grid.
NetworkSpec gridded_link() {
  NetworkSpec spec = single_link(8.0, 0.0, 1.0, Time::zero());
  spec.rate_quantum = Time::from_us(10);
  return spec;
}

bool within_ps(Time a, Time b, std::int64_t ps) { return std::llabs(a.ps() - b.ps()) <= ps; }

}  // namespace

TEST_CASE("a flow joining between grid points starts sending at the next grid point") {
  Simulator sim;
  auto net = make_flow_network(sim, gridded_link());
  Finished done;
  FlowId id = 0;
  sim.schedule_at(Time::from_us(3),
                  [&] { id = net->start_flow(flow(0, 1, 1'000'000'000), done.sink()); });
  sim.run();
  REQUIRE(done.records.size() == 1);
  // Without the quantum: 3 us + 1 s; the rate arrives 7 us late, at 10 us.
  CHECK(within_ps(done.records[0].finished_at, Time::from_us(10) + Time::from_seconds(1.0), 2));
  CHECK(done.records[0].first_byte_at == Time::from_us(10));
  CHECK(done.records[0].id == id);
  CHECK(net->bytes_delivered() == Bytes{1'000'000'000});
}

TEST_CASE("a late joiner shifts by its wait; the flow already sending keeps its closed-form end") {
  Simulator sim;
  auto net = make_flow_network(sim, gridded_link());
  Finished done;
  const FlowId a = net->start_flow(flow(0, 1, 1'000'000'000), done.sink());
  FlowId b = 0;
  sim.schedule_at(Time::from_us(3),
                  [&] { b = net->start_flow(flow(0, 1, 500'000'000), done.sink()); });
  sim.run();
  // A alone until 10 us (1e4 bytes), then both at 0.5e9 B/s: B ends at 10 us + 1 s, on the grid,
  // and A takes the whole link for its last 0.5e9 - 1e4 bytes: 1.5 s, as without the quantum.
  const Time b_end = Time::from_us(10) + Time::from_seconds(1.0);
  CHECK(within_ps(Time::from_seconds(done.at_s(b)), b_end, 2));
  CHECK(within_ps(Time::from_seconds(done.at_s(a)), Time::from_seconds(1.5), 2));
  CHECK(net->bytes_delivered() == Bytes{1'500'000'000});
}

TEST_CASE("bandwidth freed between grid points is handed out at the next grid point") {
  for (const Time quantum : {Time::zero(), Time::from_us(10)}) {
    Simulator sim;
    NetworkSpec spec = gridded_link();
    spec.rate_quantum = quantum;
    auto net = make_flow_network(sim, spec);
    Finished done;
    const FlowId a = net->start_flow(flow(0, 1, 1'000'000'000), done.sink());
    const FlowId b = net->start_flow(flow(0, 1, 500'002'500), done.sink());
    sim.run();
    // B ends at 1 s + 5 us either way. With the quantum A keeps 0.5e9 B/s until 1 s + 10 us, so
    // the link idles 2,500 bytes' worth and A ends 2.5 us after the 1.5000025 s of the exact case.
    const Time b_end = Time::from_seconds(1.0) + Time::from_us(5);
    CHECK(within_ps(Time::from_seconds(done.at_s(b)), b_end, 2));
    const Time idle = quantum > Time::zero() ? Time::from_ns(2500) : Time::zero();
    const Time a_end = Time::from_seconds(1.5000025) + idle;
    CHECK(within_ps(Time::from_seconds(done.at_s(a)), a_end, 2));
    CHECK(net->bytes_delivered() == Bytes{1'500'002'500});
  }
}

TEST_CASE("changes inside one quantum share one rate recomputation") {
  Simulator sim;
  auto net = make_flow_network(sim, gridded_link());
  Finished done;
  for (int i = 1; i <= 5; ++i) {
    sim.schedule_at(Time::from_us(i), [&] { net->start_flow(flow(0, 1, 1'000'000), done.sink()); });
  }
  sim.run_until(Time::from_us(10));
  CHECK(net->counters().recomputations == 1);
  CHECK(net->link_load(0).value == doctest::Approx(1e9));
  sim.run();
  CHECK(done.records.size() == 5);
  CHECK_THROWS_AS(net->set_rate_quantum(Time::zero() - Time::from_us(1)), std::invalid_argument);
}

TEST_CASE("a quantum keeps runs reproducible and bytes conserved under both solvers") {
  for (const double tolerance : {1e-9, 1e-3}) {
    NetworkBenchConfig config;
    config.fat_tree_k = 4;
    config.concurrent = 40;
    config.arrivals = 300;
    config.rate_tolerance = tolerance;
    config.rate_quantum = Time::from_us(50);
    const auto first = run_network_bench(config);
    const auto second = run_network_bench(config);
    CHECK(first.bytes_conserved);
    CHECK(first.flows_finished == 300);
    CHECK(first.events == second.events);
    CHECK(first.mean_fct_ms == second.mean_fct_ms);
    CHECK(first.simulated_seconds == second.simulated_seconds);
  }
}

TEST_CASE("the network JSON sets the rate tolerance and quantum strictly") {
  const auto topology = nlohmann::json::parse(R"({"kind": "single-link",
    "link": {"rate": "8Gbps", "latency": "0s"}})");
  nlohmann::json j = {{"topology", topology}, {"rate_tolerance", 1e-3}, {"rate_quantum", "10us"}};
  const NetworkSpec spec = parse_network(j, "/network");
  CHECK(spec.rate_tolerance == 1e-3);
  CHECK(spec.rate_quantum == Time::from_us(10));
  Simulator sim;
  auto net = make_flow_network(sim, spec);
  CHECK(net->rate_quantum() == Time::from_us(10));
  const NetworkSpec plain = parse_network({{"topology", topology}}, "/network");
  CHECK(plain.rate_tolerance == 1e-9);
  CHECK(plain.rate_quantum == Time::zero());

  j["rate_quantum"] = 10;
  j["rate_tolerance"] = 0.5;
  const auto paths = issue_paths([&] { parse_network(j, "/network"); });
  CHECK(paths.count("/network/rate_quantum") == 1);
  CHECK(paths.count("/network/rate_tolerance") == 1);
}

TEST_CASE("a directed link is named from its end nodes") {
  Simulator sim;
  auto net = make_network(sim, single_link(8.0, 0.0, 1.0, Time::zero()));
  CHECK(net->link_name(0) == "prefill->decode");
  CHECK(net->link_name(1) == "decode->prefill");
  CHECK_THROWS_AS(net->link_name(2), std::invalid_argument);
  NetworkSpec spec;
  spec.topology = LeafSpineTopology{1, 2, 1, link_of(100, 1), link_of(400, 1), std::nullopt};
  auto leaf_spine = make_flow_network(sim, spec);
  const auto up = leaf_spine->topology().links_by_name("leaf0.h1-leaf0");
  CHECK(leaf_spine->link_name(up[0]) == "leaf0.h1->leaf0");
  CHECK(leaf_spine->link_name(up[1]) == "leaf0->leaf0.h1");
}
