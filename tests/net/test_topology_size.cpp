#include <doctest/doctest.h>

#include <limits>

#include "net_test_util.hpp"
#include "sim/scenario/topology_json.hpp"
#include "sim/net/topology_size.hpp"

using namespace lynxsim;
using namespace lynxsim::net;
using namespace lynxsim::scenario;
using namespace lynxsim::net::test;

namespace {

void check_matches_built(const TopologySpec& spec) {
  const TopologySize size = topology_size(spec);
  const Topology t = build_topology(spec);
  CHECK(size.hosts == static_cast<std::int64_t>(t.num_hosts()));
  CHECK(size.hosts + size.switches == static_cast<std::int64_t>(t.num_nodes()));
  CHECK(2 * size.links == static_cast<std::int64_t>(t.num_links()));
}

nlohmann::json leaf_spine_json(int leaves, int hosts_per_leaf, int spines) {
  const nlohmann::json link = {{"rate", "100Gbps"}, {"latency", "1us"}};
  return {{"kind", "leaf-spine"}, {"leaves", leaves}, {"hosts_per_leaf", hosts_per_leaf},
          {"spines", spines}, {"host_link", link}, {"uplink", link}};
}

}  // namespace

TEST_CASE("the closed-form topology size equals the built topology's") {
  const LinkSpec l = link_of(100, 1);
  check_matches_built(SingleLinkTopology{l});
  check_matches_built(LeafSpineTopology{3, 5, 2, l, l, std::nullopt});
  check_matches_built(FatTreeTopology{6, l, std::nullopt});
  check_matches_built(CrossDcTopology{4, l, l});
  check_matches_built(NvlinkIslandTopology{8, l});
  check_matches_built(GraphTopology{{"a", "b", "c"}, {"s"}, {{"a", "s", l, ""}, {"b", "s", l, ""},
                                                               {"c", "s", l, ""}}});
}

TEST_CASE("a topology size saturates instead of overflowing") {
  const LinkSpec l = link_of(100, 1);
  const TopologySize size =
      topology_size(LeafSpineTopology{1'000'000, 1'000'000, 1'000'000, l, l, std::nullopt});
  CHECK(size.hosts == 1'000'000'000'000);
  CHECK(size.links == 1'000'000'000'000 + 1'000'000'000'000);
  CHECK(topology_size(FatTreeTopology{1'000'000, l, std::nullopt}).hosts == 250'000'000'000'000'000);
  const TopologySize huge =
      topology_size(FatTreeTopology{std::numeric_limits<int>::max() - 1, l, std::nullopt});
  CHECK(huge.hosts >= std::numeric_limits<std::int64_t>::max() / 4);
  CHECK(huge.links >= huge.hosts);
}

TEST_CASE("a topology over the host or link limit is refused at its path before it is built") {
  const TopologyLimits limits{1000, 4000};
  CHECK_NOTHROW(parse_topology(leaf_spine_json(10, 100, 4), "/network/topology", limits));
  try {
    parse_topology(leaf_spine_json(1'000'000, 1'000'000, 1'000'000), "/network/topology", limits);
    FAIL("expected an error");
  } catch (const NetConfigError& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].json_path == "/network/topology");
    CHECK(e.issues()[0].message.find("1000000000000 hosts") != std::string::npos);
  }
  CHECK_THROWS_AS(parse_topology(leaf_spine_json(10, 101, 4), "/t", limits), NetConfigError);
  CHECK_THROWS_AS(parse_topology(leaf_spine_json(10, 10, 400), "/t", limits), NetConfigError);
}

TEST_CASE("host and link names with control characters are refused at their path") {
  const nlohmann::json link = {{"rate", "1Gbps"}, {"latency", "1us"}};
  const nlohmann::json j = {{"topology", {{"kind", "single-link"}, {"link", link}}},
                            {"prefill_hosts", {"prefill\nx"}},
                            {"traces", {{{"link", "li\tnk"}, {"points", {{"0s", "1Gbps"}}}}}}};
  const auto paths = issue_paths([&] { parse_network(j, "/network"); });
  CHECK(paths.count("/network/prefill_hosts/0") == 1);
  CHECK(paths.count("/network/traces/0/link") == 1);
}
