#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "scenario_test_paths.hpp"
#include "sim/scenario/scenario.hpp"

using namespace lynxsim;
using namespace lynxsim::scenario;

namespace {

nlohmann::json quickstart_with(const char* workload) {
  nlohmann::json doc = load_scenario(testing::source_dir() / "scenarios" / "quickstart.json", {},
                                     testing::data_paths())
                           .resolved;
  doc["workload"] = nlohmann::json::parse(workload);
  return doc;
}

std::string first_issue_path(const nlohmann::json& doc, const ParseOptions& options) {
  try {
    parse_scenario(doc, "closed", options);
  } catch (const ScenarioError& e) {
    return e.issues().at(0).json_path;
  }
  return "";
}

}  // namespace

TEST_CASE("a closed-loop workload gives the client and its requests, all ready at 0 without a rate") {
  const nlohmann::json doc = quickstart_with(R"({"closed_loop": {"concurrency": 3, "count": 10,
      "context": {"kind": "uniform", "min": 1024, "max": 4096}, "output": 16, "think_time": "2ms"}})");
  const Scenario s = parse_scenario(doc, "closed", testing::parse_options());
  REQUIRE(s.serving.client.has_value());
  CHECK(s.serving.client->concurrency == 3);
  CHECK(s.serving.client->think_time == Time::from_ms(2.0));
  REQUIRE(s.serving.requests.size() == 10);
  for (const auto& r : s.serving.requests) {
    CHECK(r.arrival_at == Time::zero());
    CHECK(r.context_tokens >= 1024);
    CHECK(r.context_tokens <= 4096);
    CHECK(r.output_tokens == 16);
  }
  CHECK(s.resolved.at("workload").at("closed_loop").at("burstiness") == 1.0);
  const Scenario again = parse_scenario(s.resolved, "resolved", testing::parse_options());
  CHECK(again.resolved == s.resolved);
  CHECK(again.serving.requests[7].context_tokens == s.serving.requests[7].context_tokens);
}

TEST_CASE("a closed-loop rate makes seeded ready times, the last at count / rate") {
  nlohmann::json doc = quickstart_with(R"({"closed_loop": {"concurrency": 2, "count": 40,
      "rate_per_s": 4.0, "burstiness": 0.5, "context": 2048, "output": 8}})");
  const Scenario a = parse_scenario(doc, "closed", testing::parse_options());
  const Scenario b = parse_scenario(doc, "closed", testing::parse_options());
  CHECK(a.serving.requests.back().arrival_at.seconds() == doctest::Approx(10.0).epsilon(1e-9));
  for (std::size_t i = 0; i < 40; ++i) {
    CHECK(a.serving.requests[i].arrival_at == b.serving.requests[i].arrival_at);
  }
  doc["seed"] = 99;
  const Scenario c = parse_scenario(doc, "closed", testing::parse_options());
  CHECK(c.serving.requests[5].arrival_at != a.serving.requests[5].arrival_at);
}

TEST_CASE("closed-loop lengths can come from a trace, in trace order") {
  const auto dir = std::filesystem::path(LYNXSIM_BINARY_DIR) / "test_scenario" / "closed_loop";
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir / "lengths.jsonl");
    out << R"({"timestamp": 0, "input_length": 4000, "output_length": 10, "hash_ids": [1]})" << "\n"
        << R"({"timestamp": 500, "input_length": 9000, "output_length": 20, "hash_ids": [2]})" << "\n"
        << R"({"timestamp": 900, "input_length": 3000, "output_length": 5, "hash_ids": [3]})" << "\n";
  }
  ParseOptions options = testing::parse_options();
  options.base_dir = dir;
  nlohmann::json doc = quickstart_with(R"({"closed_loop": {"concurrency": 1,
      "lengths_from": {"file": "lengths.jsonl", "format": "mooncake"}}})");
  const Scenario s = parse_scenario(doc, "closed", options);
  REQUIRE(s.serving.requests.size() == 3);
  CHECK(s.serving.requests[1].context_tokens == 9000);
  CHECK(s.serving.requests[2].output_tokens == 5);
  CHECK(s.serving.requests[2].arrival_at == Time::zero());
  CHECK(s.resolved.at("workload").at("closed_loop").at("count") == 3);
  doc["workload"]["closed_loop"]["count"] = 2;
  CHECK(parse_scenario(doc, "closed", options).serving.requests.size() == 2);
  doc["workload"]["closed_loop"]["count"] = 4;
  CHECK(first_issue_path(doc, options) == "/workload/closed_loop/count");
  doc["workload"]["closed_loop"]["count"] = 2;
  doc["workload"]["closed_loop"]["context"] = 100;
  CHECK(first_issue_path(doc, options) == "/workload/closed_loop/context");
}
