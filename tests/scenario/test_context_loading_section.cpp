#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "scenario_test_paths.hpp"
#include "sim/scenario/scenario.hpp"

using namespace lynxsim::scenario;

namespace {

std::vector<ScenarioIssue> issues_of(const std::string& file) {
  try {
    load_scenario(testing::bad_dir() / file, {}, testing::data_paths());
  } catch (const ScenarioError& e) {
    return e.issues();
  }
  FAIL("no ScenarioError for " << file);
  return {};
}

}  // namespace

TEST_CASE("a malformed context_loading section gets one issue at its path") {
  const std::vector<std::pair<std::string, std::pair<std::string, std::string>>> table{
      {"context_loading_no_amount.json", {"/context_loading", "exactly one of"}},
      {"context_loading_two_amounts.json", {"/context_loading", "exactly one of"}},
      {"context_loading_fraction_range.json", {"/context_loading/cached_fraction", "(0, 1]"}},
      {"context_loading_no_target.json", {"/context_loading/target", "missing"}},
      {"context_loading_unknown_target.json",
       {"/context_loading/target", "expected one of \"prefill\", \"decode\", \"aggregated\""}},
      {"context_loading_unknown_host.json", {"/context_loading/store_host", "unknown host \"nas0\""}},
      {"context_loading_aggregated_prefill_token.json",
       {"/serving/first_token_from", "aggregated context-loading target"}},
      {"context_loading_cachegen_decode.json", {"/context_loading/target", "cachegen loads"}},
      {"prefix_cache_aggregated_target.json",
       {"/prefix_cache/target", "expected one of \"prefill\", \"decode\""}},
  };
  for (const auto& [file, expected] : table) {
    CAPTURE(file);
    const auto issues = issues_of(file);
    REQUIRE(issues.size() == 1);
    CHECK(issues.front().json_path == expected.first);
    CHECK(issues.front().message.find(expected.second) != std::string::npos);
  }
}

TEST_CASE("the bundled context-loading scenario resolves its section") {
  const Scenario s = load_scenario(testing::source_dir() / "scenarios/cachegen-context-loading.json",
                                   {}, testing::data_paths());
  const auto& spec = s.serving.context_loading;
  CHECK(spec.enabled);
  CHECK(spec.target == lynxsim::serving::LoadTarget::aggregated);
  CHECK(spec.store_host == "store");
  CHECK(spec.cached_for(9600) == 9536);
  CHECK(s.resolved.at("context_loading").at("target") == "aggregated");
  CHECK(s.resolved.at("context_loading").at("cached_tokens") == 9536);
}
