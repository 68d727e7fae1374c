#include <doctest/doctest.h>

#include "serving_fixture.hpp"
#include "sim/serving/route_check.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

namespace {

// p0, p1 on switch s0; d0 on s1; the store on s1; the two switches unlinked.
net::Topology split_graph(std::vector<std::string> prefill_pool, std::vector<std::string> decode_pool) {
  net::GraphTopology g;
  g.hosts = {"p0", "p1", "d0", "store"};
  g.switches = {"s0", "s1"};
  const net::LinkSpec l{BitsPerSecond{100e9}, Time::from_us(1), 1.0};
  g.links = {{"p0", "s0", l, ""}, {"p1", "s0", l, ""}, {"d0", "s1", l, ""}, {"store", "s1", l, ""}};
  net::NetworkSpec spec;
  spec.topology = g;
  spec.pool_hosts = {std::move(prefill_pool), std::move(decode_pool)};
  return net::build_placed_topology(spec);
}

std::vector<RouteUse> uses(const std::vector<RouteProblem>& problems) {
  std::vector<RouteUse> out;
  for (const RouteProblem& p : problems) out.push_back(p.use);
  return out;
}

}  // namespace

TEST_CASE("KV and store routes are required where the run sends") {
  ServingConfig c = test::quickstart_config(4096, 4);
  CHECK(uses(missing_routes(c, split_graph({"p0"}, {"d0"}))) == std::vector{RouteUse::kv});
  CHECK(missing_routes(c, split_graph({"p0"}, {"p1"})).empty());
  c.context_loading = {true, "store", LoadTarget::decode, 1024, 0.0};
  CHECK(uses(missing_routes(c, split_graph({"p0"}, {"p1"}))) == std::vector{RouteUse::store});
  c.context_loading.target = LoadTarget::aggregated;
  CHECK(missing_routes(c, split_graph({"p0"}, {"d0"})).empty());
  const auto problems = missing_routes(c, split_graph({"d0"}, {"p1"}));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].message.find("\"store\" to host \"p1\"") != std::string::npos);
}

TEST_CASE("the hosts of a MoE prefill instance must reach each other for its all-to-all") {
  ServingConfig c = test::quickstart_config(4096, 4);
  c.model = test::model_card("qwen3-30b-a3b");
  c.prefill.tensor_parallel = 2;
  c.decode.tensor_parallel = 2;
  CHECK(uses(missing_routes(c, split_graph({"p0", "d0"}, {"store"}))) ==
        std::vector{RouteUse::kv, RouteUse::expert_exchange});
  c.prefill.all_to_all_flows = false;
  CHECK(uses(missing_routes(c, split_graph({"p0", "p1"}, {"p0", "p1"}))).empty());
}
