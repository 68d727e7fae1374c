#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "net_test_util.hpp"
#include "sim/scenario/topology_json.hpp"

using namespace lynxsim;
using namespace lynxsim::net;
using namespace lynxsim::scenario;
using namespace lynxsim::net::test;

namespace {

NetworkSpec leaf_spine(Time setup) {
  NetworkSpec spec;
  spec.topology = LeafSpineTopology{2, 4, 2, link_of(100, 1), link_of(100, 2), std::nullopt};
  spec.setup_time = setup;
  return spec;
}

}  // namespace

TEST_CASE("multi-hop latency adds every link's latency on a leaf-spine path") {
  Simulator sim;
  auto net = make_flow_network(sim, leaf_spine(Time::from_us(10)));
  Finished done;
  const HostId a = net->host_by_name("leaf0.h0");
  const HostId b = net->host_by_name("leaf1.h0");
  net->start_flow(flow(a, b, 125'000'000), done.sink());
  sim.run();
  REQUIRE(done.records.size() == 1);
  CHECK(done.records[0].hops == 4);
  CHECK(done.records[0].path_latency_time == Time::from_us(6));
  CHECK(done.records[0].finished_at.seconds() == doctest::Approx(10e-6 + 6e-6 + 0.01).epsilon(1e-12));
}

TEST_CASE("a capacity step in the middle of a transfer changes its finish time exactly") {
  Simulator sim;
  auto net = make_flow_network(sim, single_link(80, 0, 1.0, Time::zero()));
  Finished done;
  net->start_flow(flow(0, 1, 1'000'000'000), done.sink());
  sim.schedule_at(Time::from_ms(50), [&] { net->set_link_rate(0, BitsPerSecond{40e9}); });
  sim.run();
  CHECK(done.records.at(0).finished_at.seconds() == doctest::Approx(0.05 + 0.1).epsilon(1e-12));
}

TEST_CASE("a bandwidth trace drives the link rate") {
  Simulator sim;
  NetworkSpec spec = single_link(80, 0, 1.0, Time::zero());
  spec.traces.push_back({"link", {{Time::zero(), {8e9}}, {Time::from_ms(500), {80e9}}}, false});
  auto net = make_flow_network(sim, spec);
  Finished done;
  net->start_flow(flow(0, 1, 1'000'000'000), done.sink());
  sim.run();
  CHECK(done.records.at(0).finished_at.seconds() == doctest::Approx(0.5 + 0.05).epsilon(1e-12));
}

TEST_CASE("ECMP spreads flows between two pods over several core paths") {
  Simulator sim;
  NetworkSpec spec;
  spec.topology = FatTreeTopology{4, link_of(100, 1), std::nullopt};
  auto net = make_flow_network(sim, spec);
  std::set<std::vector<LinkId>> routes;
  for (std::uint64_t key = 0; key < 64; ++key) routes.insert(net->router().route(0, 15, key));
  CHECK(routes.size() == 4);
  for (const auto& r : routes) CHECK(r.size() == 6);
}

TEST_CASE("an anchor of a later request overtakes the residual of an earlier one") {
  Simulator sim;
  auto net = make_flow_network(sim, leaf_spine(Time::from_us(5)));
  Finished done;
  const HostId p = net->place(0, 0, 0, 1);
  const HostId d = net->place(1, 0, 0, 1);
  const FlowId residual = net->start_flow(flow(p, d, 500'000'000, 1), done.sink());
  FlowId anchor = 0;
  sim.schedule_at(Time::from_ms(10), [&] { anchor = net->start_flow(flow(p, d, 250'000'000, 0), done.sink()); });
  sim.run();
  CHECK(done.at_s(anchor) < done.at_s(residual));
  CHECK(done.at_s(anchor) == doctest::Approx(0.01 + 5e-6 + 6e-6 + 0.02).epsilon(1e-9));
  CHECK(done.at_s(residual) == doctest::Approx(5e-6 + 6e-6 + 0.04 + 0.02).epsilon(1e-9));
}

TEST_CASE("background traffic takes its paced rate and stops at its stop time") {
  Simulator sim;
  NetworkSpec spec = single_link(80, 0, 1.0, Time::zero());
  spec.background.push_back({"prefill", "decode", {40e9}, std::nullopt, Time::zero(), false,
                             Time::zero(), Time::from_ms(100), 0, "bg"});
  auto net = make_flow_network(sim, spec);
  Finished done;
  net->start_flow(flow(0, 1, 1'000'000'000, 0), done.sink());
  sim.run();
  CHECK(done.records.at(0).finished_at.seconds() == doctest::Approx(0.15).epsilon(1e-9));
  CHECK(net->bytes_delivered() == Bytes{1'500'000'000});
}

TEST_CASE("equal seeds give identical flow records and bytes are conserved") {
  const auto run_once = [](std::uint64_t seed) {
    Simulator sim(seed);
    NetworkSpec spec;
    spec.topology = FatTreeTopology{4, link_of(100, 1), std::nullopt};
    auto net = make_flow_network(sim, spec);
    Finished done;
    std::int64_t total = 0;
    for (int i = 0; i < 200; ++i) {
      const auto src = static_cast<HostId>(sim.rng("t").uniform_int(16));
      const auto dst = static_cast<HostId>((src + 1 + sim.rng("t").uniform_int(15)) % 16);
      const auto bytes = static_cast<std::int64_t>(sim.rng("t").uniform(1e5, 1e8));
      total += bytes;
      sim.schedule_at(Time::from_us(10.0 * i), [&, src, dst, bytes] {
        net->start_flow(flow(src, dst, bytes, static_cast<int>(bytes % 3)), done.sink());
      });
    }
    sim.run();
    CHECK(net->bytes_delivered().value == total);
    std::vector<std::int64_t> out;
    for (const auto& r : done.records) out.push_back(r.finished_at.ps());
    return out;
  };
  CHECK(run_once(3) == run_once(3));
}

TEST_CASE("the topology parser reports every error with its JSON path") {
  const auto j = nlohmann::json::parse(R"({"kind": "leaf-spine", "leaves": 0, "hosts_per_leaf": 4,
    "spines": 2, "host_link": {"rate": 100, "latency": "1us"}, "uplink": {"rate": "400Gbps",
    "latency": "1us", "colour": "red"}})");
  const auto paths = issue_paths([&] { parse_topology(j, "/network/topology"); });
  CHECK(paths.count("/network/topology/leaves") == 1);
  CHECK(paths.count("/network/topology/host_link/rate") == 1);
  CHECK(paths.count("/network/topology/uplink/colour") == 1);
}

TEST_CASE("every preset in configs/topologies parses and builds") {
  for (const auto& entry : std::filesystem::directory_iterator(LYNXSIM_SOURCE_DIR "/configs/topologies")) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    const auto spec = parse_network(nlohmann::json::parse(in), "", entry.path().parent_path().string());
    CHECK(build_topology(spec.topology).num_hosts() >= 2);
  }
}

TEST_CASE("link_specs lists the rates every built link has, an oversubscribed uplink's derived one too") {
  const std::vector<TopologySpec> specs{
      SingleLinkTopology{link_of(25, 1)},
      LeafSpineTopology{3, 6, 2, link_of(100, 1), link_of(400, 1), 2.0},
      FatTreeTopology{4, link_of(200, 1), link_of(50, 1)},
      CrossDcTopology{2, link_of(100, 1), link_of(10, 5)},
      NvlinkIslandTopology{4, link_of(900, 1)}};
  for (const TopologySpec& spec : specs) {
    std::set<double> listed;
    for (const LinkSpec& l : link_specs(spec)) listed.insert(l.goodput().value);
    std::set<double> built;
    const Topology t = build_topology(spec);
    for (const DirectedLink& l : t.links()) built.insert(l.spec.goodput().value);
    CHECK(listed == built);
  }
}
