#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "net_test_util.hpp"
#include "sim/net/network_factory.hpp"
#include "sim/scenario/topology_json.hpp"

using namespace lynxsim;
using namespace lynxsim::net;
using namespace lynxsim::scenario;
using namespace lynxsim::net::test;

namespace {

// 80 Gb/s = 10 GB/s: a lone 1 GB flow takes 0.1 s.
NetworkSpec scheduled(SchedulingPolicy policy, int classes = 8, std::vector<double> weights = {}) {
  NetworkSpec spec = single_link(80, 0, 1.0, Time::zero());
  spec.scheduling.policy = policy;
  spec.scheduling.classes = classes;
  spec.scheduling.weights = std::move(weights);
  return spec;
}

FlowSpec keyed(std::int64_t bytes, int plane, std::int64_t key) {
  FlowSpec f = flow(0, 1, bytes, plane);
  f.order_key = key;
  return f;
}

}  // namespace

TEST_CASE("weighted: queues with weights 3:1 get 3/4 and 1/4 of the link while both are active") {
  Simulator sim;
  auto net = make_network(sim, scheduled(SchedulingPolicy::weighted, 8, {3.0, 1.0}));
  Finished done;
  const FlowId anchor = net->start_flow(flow(0, 1, 1'000'000'000, 0), done.sink());
  const FlowId residual = net->start_flow(flow(0, 1, 1'000'000'000, 1), done.sink());
  sim.run();
  CHECK(done.at_s(anchor) == doctest::Approx(1.0 / 7.5));
  CHECK(done.at_s(residual) == doctest::Approx(0.2));
}

TEST_CASE("weighted: a queue's share is split among its flows, not multiplied by them") {
  Simulator sim;
  auto net = make_network(sim, scheduled(SchedulingPolicy::weighted, 8, {3.0, 1.0}));
  Finished done;
  const FlowId anchor = net->start_flow(flow(0, 1, 1'000'000'000, 0), done.sink());
  const FlowId r1 = net->start_flow(flow(0, 1, 1'000'000'000, 1), done.sink());
  const FlowId r2 = net->start_flow(flow(0, 1, 1'000'000'000, 1), done.sink());
  sim.run();
  CHECK(done.at_s(anchor) == doctest::Approx(1.0 / 7.5));
  // Each residual ran at 1.25 GB/s until then (1/6 GB), then at 5 GB/s.
  CHECK(done.at_s(r1) == doctest::Approx(1.0 / 7.5 + (1.0 - 1.0 / 6.0) / 5.0));
  CHECK(done.at_s(r2) == doctest::Approx(done.at_s(r1)));
  CHECK(net->bytes_delivered() == Bytes{3'000'000'000});
}

TEST_CASE("weighted is work-conserving: a lone lower queue gets the whole link") {
  Simulator sim;
  auto net = make_network(sim, scheduled(SchedulingPolicy::weighted, 8, {3.0, 1.0}));
  Finished done;
  const FlowId residual = net->start_flow(flow(0, 1, 1'000'000'000, 1), done.sink());
  sim.run();
  CHECK(done.at_s(residual) == doctest::Approx(0.1));
}

TEST_CASE("request_order: request 1's planes finish before request 2's, anchor first") {
  Simulator sim;
  auto net = make_network(sim, scheduled(SchedulingPolicy::request_order));
  Finished done;
  const FlowId b0 = net->start_flow(keyed(1'000'000'000, 0, 2), done.sink());
  const FlowId b1 = net->start_flow(keyed(1'000'000'000, 1, 2), done.sink());
  sim.run_until(Time::from_ms(50));
  const FlowId a1 = net->start_flow(keyed(1'000'000'000, 1, 1), done.sink());
  const FlowId a0 = net->start_flow(keyed(1'000'000'000, 0, 1), done.sink());
  sim.run();
  CHECK(done.at_s(a0) == doctest::Approx(0.15));
  CHECK(done.at_s(a1) == doctest::Approx(0.25));
  CHECK(done.at_s(b0) == doctest::Approx(0.30));
  CHECK(done.at_s(b1) == doctest::Approx(0.40));
}

TEST_CASE("request_order keeps background traffic below every request") {
  Simulator sim;
  auto net = make_network(sim, scheduled(SchedulingPolicy::request_order));
  Finished done;
  const FlowId bg = net->start_flow(flow(0, 1, 1'000'000'000, kBackgroundClass), done.sink());
  const FlowId kv = net->start_flow(keyed(1'000'000'000, 1, 100'000'000), done.sink());
  sim.run();
  CHECK(done.at_s(kv) == doctest::Approx(0.1));
  CHECK(done.at_s(bg) == doctest::Approx(0.2));
}

TEST_CASE("fair: planes of any class split the link equally") {
  Simulator sim;
  auto net = make_network(sim, scheduled(SchedulingPolicy::fair));
  Finished done;
  const FlowId a = net->start_flow(flow(0, 1, 1'000'000'000, 0), done.sink());
  const FlowId b = net->start_flow(flow(0, 1, 1'000'000'000, 1), done.sink());
  const FlowId c = net->start_flow(flow(0, 1, 1'000'000'000, kBackgroundClass), done.sink());
  sim.run();
  for (const FlowId id : {a, b, c}) CHECK(done.at_s(id) == doctest::Approx(0.3));
}

TEST_CASE("strict: planes beyond the offered classes merge into the last queue") {
  for (const int classes : {2, 8}) {
    Simulator sim;
    auto net = make_network(sim, scheduled(SchedulingPolicy::strict, classes));
    Finished done;
    const FlowId p0 = net->start_flow(flow(0, 1, 1'000'000'000, 0), done.sink());
    const FlowId p1 = net->start_flow(flow(0, 1, 1'000'000'000, 1), done.sink());
    const FlowId p2 = net->start_flow(flow(0, 1, 1'000'000'000, 2), done.sink());
    sim.run();
    CHECK(done.at_s(p0) == doctest::Approx(0.1));
    CHECK(done.at_s(p1) == doctest::Approx(classes == 2 ? 0.3 : 0.2));
    CHECK(done.at_s(p2) == doctest::Approx(0.3));
  }
}

TEST_CASE("aging: an anchor overtakes an earlier residual for at most max_wait") {
  NetworkSpec spec = scheduled(SchedulingPolicy::aging);
  spec.scheduling.max_wait = Time::from_ms(50);
  Simulator sim;
  auto net = make_network(sim, spec);
  Finished done;
  const FlowId residual = net->start_flow(keyed(1'000'000'000, 1, 0), done.sink());
  const FlowId anchor = net->start_flow(keyed(2'000'000'000, 0, 1), done.sink());
  sim.run();
  CHECK(done.at_s(residual) == doctest::Approx(0.15));
  CHECK(done.at_s(anchor) == doctest::Approx(0.30));
  CHECK(net->bytes_delivered() == Bytes{3'000'000'000});
}

TEST_CASE("aging: anchors go in arrival order, not shared") {
  NetworkSpec spec = scheduled(SchedulingPolicy::aging);
  Simulator sim;
  auto net = make_network(sim, spec);
  Finished done;
  const FlowId residual = net->start_flow(keyed(1'000'000'000, 1, 0), done.sink());
  const FlowId second = net->start_flow(keyed(1'000'000'000, 0, 2), done.sink());
  const FlowId first = net->start_flow(keyed(1'000'000'000, 0, 1), done.sink());
  sim.run();
  CHECK(done.at_s(first) == doctest::Approx(0.1));
  CHECK(done.at_s(second) == doctest::Approx(0.2));
  CHECK(done.at_s(residual) == doctest::Approx(0.3));
}

TEST_CASE("the network JSON reads the scheduling policy strictly") {
  const auto topology = nlohmann::json::parse(R"({"kind": "single-link",
    "link": {"rate": "8Gbps", "latency": "0s"}})");
  nlohmann::json j = {{"topology", topology},
                      {"scheduling", {{"policy", "weighted"}, {"classes", 4},
                                      {"weights", {4, 2, 1}}, {"max_wait", "20ms"}}}};
  const NetworkSpec spec = parse_network(j, "/network");
  CHECK(spec.scheduling.policy == SchedulingPolicy::weighted);
  CHECK(spec.scheduling.classes == 4);
  CHECK(spec.scheduling.weights == std::vector<double>{4, 2, 1});
  CHECK(spec.scheduling.max_wait == Time::from_ms(20));
  CHECK(parse_network({{"topology", topology}}, "/network").scheduling.policy ==
        SchedulingPolicy::request_order);

  j["scheduling"] = {{"policy", "fifo"}, {"classes", 9}, {"weights", {1, -1}}, {"queues", 2}};
  const auto unknown_key = issue_paths([&] { parse_network(j, "/network"); });
  CHECK(unknown_key.count("/network/scheduling/queues") == 1);
  j["scheduling"] = {{"policy", "fifo"}, {"classes", 9}, {"weights", {1, -1}}};
  const auto bad_values = issue_paths([&] { parse_network(j, "/network"); });
  CHECK(bad_values.count("/network/scheduling/policy") == 1);
  CHECK(bad_values.count("/network/scheduling/classes") == 1);
  CHECK(bad_values.count("/network/scheduling/weights/1") == 1);
}
