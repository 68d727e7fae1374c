#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "scenario_test_paths.hpp"
#include "sim/scenario/scenario.hpp"

using namespace lynxsim;
using namespace lynxsim::scenario;

namespace {

// The quickstart scenario on a leaf-spine with a three-request Mooncake trace (prefix blocks 1, 2).
nlohmann::json cluster_document() {
  const auto dir = std::filesystem::path(LYNXSIM_BINARY_DIR) / "test_scenario" / "cluster";
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir / "prefix.jsonl");
    out << R"({"timestamp": 0, "input_length": 1200, "output_length": 4, "hash_ids": [1, 2, 3]})"
        << "\n"
        << R"({"timestamp": 10, "input_length": 1100, "output_length": 4, "hash_ids": [1, 2, 4]})"
        << "\n";
  }
  nlohmann::json doc = load_scenario(testing::source_dir() / "scenarios" / "quickstart.json", {},
                                     testing::data_paths())
                           .resolved;
  doc["network"] = "leaf-spine-400g";
  doc["workload"] = {{"trace", {{"file", (dir / "prefix.jsonl").string()}, {"format", "mooncake"}}}};
  return doc;
}

Scenario parse(const nlohmann::json& doc) {
  return parse_scenario(doc, "cluster", testing::parse_options());
}

std::vector<ScenarioIssue> issues_of(const nlohmann::json& doc) {
  try {
    parse(doc);
  } catch (const ScenarioError& e) {
    return e.issues();
  }
  return {};
}

}  // namespace

TEST_CASE("the prefix cache is off by default and resolved with its defaults") {
  const Scenario s = parse(cluster_document());
  CHECK_FALSE(s.serving.prefix_cache.enabled);
  const auto& resolved = s.resolved.at("prefix_cache");
  CHECK(resolved.at("enabled") == false);
  CHECK(resolved.at("block_tokens") == 512);
  CHECK(resolved.at("capacity") == "0B");
}

TEST_CASE("a prefix_cache section enables the cache on a store host of the network") {
  nlohmann::json doc = cluster_document();
  doc["prefix_cache"] = {{"store_host", "leaf1.h7"}, {"capacity", "64GiB"}, {"block_tokens", 256}};
  const Scenario s = parse(doc);
  const auto& cache = s.serving.prefix_cache;
  CHECK(cache.enabled);
  CHECK(cache.store_host == "leaf1.h7");
  CHECK(cache.capacity.value == 64LL * 1024 * 1024 * 1024);
  CHECK(cache.block_tokens == 256);
  CHECK(s.resolved.at("prefix_cache").at("capacity") == "64GiB");
  const Scenario again = parse(s.resolved);
  CHECK(again.serving.prefix_cache.capacity == cache.capacity);
  CHECK(again.serving.prefix_cache.store_host == "leaf1.h7");
  CHECK(again.resolved == s.resolved);
}

TEST_CASE("prefix cache errors name their JSON path") {
  nlohmann::json doc = cluster_document();
  doc["prefix_cache"] = {{"capacity", 64}, {"block_tokens", 0}, {"colour", "red"}};
  const auto issues = issues_of(doc);
  REQUIRE(issues.size() == 4);
  CHECK(issues[0].json_path == "/prefix_cache/store_host");
  CHECK(issues[0].message == "missing field");
  CHECK(issues[1].json_path == "/prefix_cache/capacity");
  CHECK(issues[1].message.find("expected a size like \"64GiB\", got 64") != std::string::npos);
  CHECK(issues[2].json_path == "/prefix_cache/block_tokens");
  CHECK(issues[3].json_path == "/prefix_cache/colour");
}

TEST_CASE("an unknown store host and a workload without block ids are errors") {
  nlohmann::json doc = cluster_document();
  doc["prefix_cache"] = {{"store_host", "rack9.h0"}};
  auto issues = issues_of(doc);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].json_path == "/prefix_cache/store_host");
  CHECK(issues[0].message.find("unknown host \"rack9.h0\"") != std::string::npos);
  CHECK(issues[0].message.find("leaf0.h0") != std::string::npos);
  doc["prefix_cache"] = {{"store_host", "leaf1.h7"}};
  doc["workload"] = {{"requests", {{{"context", 1000}, {"output", 4}}}}};
  issues = issues_of(doc);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].json_path == "/prefix_cache/enabled");
  CHECK(issues[0].message.find("hash_ids") != std::string::npos);
  doc["prefix_cache"]["enabled"] = false;
  CHECK_NOTHROW(parse(doc));
}

TEST_CASE("an array of instance groups makes a heterogeneous cluster") {
  nlohmann::json doc = cluster_document();
  doc["prefill"] = nlohmann::json::parse(
      R"([{"gpu": "h100-sxm", "count": 4}, {"gpu": "ascend-910b", "tp": 2, "count": 2}])");
  doc["decode"] = {{"gpu", "h100-sxm"}, {"count", 8}};
  const Scenario s = parse(doc);
  CHECK(s.serving.prefill.gpu.name == "h100-sxm");
  CHECK(s.serving.prefill.count == 4);
  REQUIRE(s.serving.extra_prefill.size() == 1);
  CHECK(s.serving.extra_prefill[0].gpu.name == "ascend-910b");
  CHECK(s.serving.extra_prefill[0].tensor_parallel == 2);
  CHECK(s.serving.extra_prefill[0].count == 2);
  CHECK(s.serving.decode.count == 8);
  CHECK(s.serving.extra_decode.empty());
  CHECK(s.resolved.at("prefill").is_array());
  CHECK(s.resolved.at("decode").is_object());
  const Scenario again = parse(s.resolved);
  CHECK(again.serving.extra_prefill.size() == 1);
  CHECK(again.resolved == s.resolved);
}

TEST_CASE("instance group errors name the group's index") {
  nlohmann::json doc = cluster_document();
  doc["prefill"] = nlohmann::json::parse(R"([{"gpu": "h100-sxm"}, {"gpu": "h100-sxm", "count": 0}])");
  auto issues = issues_of(doc);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].json_path == "/prefill/1/count");
  doc["prefill"] = nlohmann::json::array();
  issues = issues_of(doc);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].json_path == "/prefill");
}

TEST_CASE("trace window, time scale and request limit are read and resolved") {
  nlohmann::json doc = cluster_document();
  doc["workload"]["trace"]["window_start"] = "5ms";
  doc["workload"]["trace"]["time_scale"] = 2.0;
  doc["workload"]["trace"]["max_requests"] = 1;
  const Scenario s = parse(doc);
  REQUIRE(s.serving.requests.size() == 1);
  CHECK(s.serving.requests[0].context_tokens == 1100);
  CHECK(s.serving.requests[0].arrival_at == Time::from_ms(10.0));
  CHECK(s.resolved.at("workload").at("trace").at("max_requests") == 1);
  doc["workload"]["trace"]["max_requests"] = 0;
  const auto issues = issues_of(doc);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].json_path == "/workload/trace/max_requests");
}

TEST_CASE("an SLO is read as durations and a bare number is an error") {
  nlohmann::json doc = cluster_document();
  doc["slo"] = {{"ttft", "2s"}, {"tpot", "100ms"}};
  const Scenario s = parse(doc);
  REQUIRE(s.serving.slo.ttft.has_value());
  CHECK(*s.serving.slo.ttft == Time::from_seconds(2.0));
  CHECK(*s.serving.slo.tpot == Time::from_ms(100.0));
  doc["slo"]["ttft"] = 2;
  const auto issues = issues_of(doc);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].json_path == "/slo/ttft");
}

namespace {

nlohmann::json deepseek_document() {
  nlohmann::json doc = load_scenario(testing::source_dir() / "scenarios" / "deepseek-v3-32k-h800-ep.json", {},
                                     testing::data_paths())
                           .resolved;
  for (const char* role : {"prefill", "decode"}) {
    for (const char* key : {"attention_dp", "expert_parallel"}) doc[role].erase(key);
  }
  return doc;
}

}  // namespace

TEST_CASE("a MoE card with MLA defaults to expert parallelism with data-parallel attention") {
  const Scenario s = parse(deepseek_document());
  CHECK(s.serving.prefill.parallel.attention_dp == 4);
  CHECK(s.serving.prefill.parallel.expert_parallel == 16);
  CHECK(s.serving.decode.parallel.attention_dp == 16);
  CHECK(s.serving.decode.parallel.expert_parallel == 16);
  CHECK(s.serving.decode.parallel.load_imbalance == 1.11);
  CHECK(s.serving.decode.parallel.node_gpus == 8);
  CHECK(s.resolved.at("decode").at("attention_dp") == 16);
  CHECK(s.resolved.at("prefill").at("expert_parallel") == 16);
  const Scenario dense = parse(cluster_document());
  CHECK(dense.serving.decode.parallel.trivial());
  CHECK(dense.resolved.at("decode").at("attention_dp") == 1);
}

TEST_CASE("the expert all-to-all runs as flows unless an instance group asks for the closed form") {
  nlohmann::json doc = deepseek_document();
  CHECK(parse(doc).serving.prefill.all_to_all_flows);
  CHECK(parse(doc).resolved.at("prefill").at("all_to_all") == "flows");
  doc["prefill"]["all_to_all"] = "closed-form";
  const Scenario s = parse(doc);
  CHECK_FALSE(s.serving.prefill.all_to_all_flows);
  CHECK(s.resolved.at("prefill").at("all_to_all") == "closed-form");
  doc["prefill"]["all_to_all"] = "nvlink";
  auto issues = issues_of(doc);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].json_path == "/prefill/all_to_all");
}

TEST_CASE("an impossible parallel layout is an error at its instance group") {
  nlohmann::json doc = deepseek_document();
  doc["decode"]["attention_dp"] = 3;
  auto issues = issues_of(doc);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].json_path == "/decode");
  CHECK(issues[0].message == "attention_dp must divide tp");
  doc = deepseek_document();
  doc["prefill"]["expert_load_imbalance"] = 0.5;
  issues = issues_of(doc);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].json_path == "/prefill/expert_load_imbalance");
  doc = cluster_document();
  doc["decode"]["tp"] = 2;
  doc["decode"]["expert_parallel"] = 2;
  issues = issues_of(doc);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].json_path == "/decode");
  CHECK(issues[0].message.find("moe section") != std::string::npos);
}
