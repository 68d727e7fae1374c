#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "scenario_test_paths.hpp"
#include "sim/scenario/scenario.hpp"

using namespace lynxsim;
using namespace lynxsim::scenario;

namespace {

std::vector<std::filesystem::path> bundled_scenarios() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(testing::source_dir() / "scenarios")) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool same_requests(const std::vector<serving::RequestSpec>& a,
                   const std::vector<serving::RequestSpec>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.arrival_at == y.arrival_at && x.context_tokens == y.context_tokens &&
           x.output_tokens == y.output_tokens && x.hash_ids == y.hash_ids;
  });
}

}  // namespace

TEST_CASE("every bundled scenario's resolved form parses back to the same scenario") {
  const auto files = bundled_scenarios();
  REQUIRE(files.size() >= 10);
  for (const auto& file : files) {
    CAPTURE(file.filename().string());
    const Scenario s = load_scenario(file, {}, testing::data_paths());
    ParseOptions options{testing::data_paths(), file.parent_path()};
    const Scenario again = parse_scenario(s.resolved, "resolved", options);
    CHECK(again.resolved == s.resolved);
    CHECK(again.name == s.name);
    CHECK(again.methods.size() == s.methods.size());
    CHECK(same_requests(again.serving.requests, s.serving.requests));
    CHECK(again.network.setup_time == s.network.setup_time);
    CHECK(again.serving.model.name == s.serving.model.name);
  }
}

TEST_CASE("a named network preset is expanded before overrides reach into it") {
  const auto file = testing::source_dir() / "scenarios" / "mooncake-hour-h100-8p8d.json";
  const Scenario base = load_scenario(file, {}, testing::data_paths());
  CHECK(base.resolved.at("network").at("preset") == "leaf-spine-400g");
  CHECK(base.resolved.at("network").at("topology").at("host_link").at("rate") == "400Gbps");
  const Scenario slower = load_scenario(file, {"network.topology.host_link.rate=100Gbps"},
                                        testing::data_paths());
  const auto& topo = std::get<net::LeafSpineTopology>(slower.network.topology);
  CHECK(topo.host_link.rate.value == doctest::Approx(100e9));
  CHECK(slower.resolved.at("network").at("topology").at("host_link").at("rate") == "100Gbps");
  try {
    load_scenario(file, {"network.topology.leaves=0"}, testing::data_paths());
    FAIL("leaves=0 accepted");
  } catch (const ScenarioError& e) {
    REQUIRE_FALSE(e.issues().empty());
    CHECK(e.issues().front().json_path.find("/network/topology") == 0);
    CHECK(e.issues().front().message.find("--set network.topology.leaves=0") != std::string::npos);
  }
}
