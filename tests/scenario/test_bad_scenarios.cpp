#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "scenario_test_paths.hpp"
#include "sim/scenario/scenario.hpp"

using namespace lynxsim::scenario;

namespace {

ScenarioError load_error(const std::string& file) {
  try {
    load_scenario(testing::bad_dir() / file, {}, testing::data_paths());
  } catch (const ScenarioError& e) {
    return e;
  }
  FAIL("no ScenarioError for " << file);
  return ScenarioError(file, {});
}

bool has_issue(const ScenarioError& e, const std::string& path, const std::string& message) {
  for (const auto& issue : e.issues()) {
    if (issue.json_path.find(path) != std::string::npos &&
        issue.message.find(message) != std::string::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("every malformed scenario fixture names the offending JSON path") {
  const std::vector<std::pair<std::string, std::pair<std::string, std::string>>> table{
      {"bare_number_rate.json", {"/network/bandwidth", "expected a rate like \"100Gbps\", got 25"}},
      {"unknown_top_key.json", {"/colour", "unknown key"}},
      {"unknown_model.json", {"/model", "unknown model \"llama-9\""}},
      {"unknown_gpu.json", {"/prefill/gpu", "unknown GPU \"tpu-v9\""}},
      {"empty_methods.json", {"/methods", "non-empty array"}},
      {"duplicate_methods.json", {"/methods/1", "duplicate method name"}},
      {"negative_context.json", {"/workload/requests/0/context", "integer >= 1"}},
      {"bare_number_arrival.json", {"/workload/requests/0/arrival", "duration"}},
      {"unknown_method.json", {"/methods/0", "unknown transfer method"}},
      {"wrong_type_batch.json", {"/serving/max_decode_batch", "integer"}},
      {"zero_draft_tokens.json", {"/speculation/max_draft_tokens", "integer >= 1"}},
      {"invalid_plane_split.json", {"/methods/0", "plane bits"}},
      {"zero_tp.json", {"/prefill/tp", "integer >= 1"}},
      {"bad_interval_unit.json", {"/workload/interval", "duration"}},
      {"wrong_type_accuracy.json", {"/accuracy/enabled", "true or false"}},
      {"net_object_bare_latency.json", {"/network/topology/link/latency", ""}},
      {"context_too_long.json", {"/workload/requests/0/context", "max_context"}},
      {"wrong_schema_version.json", {"/schema_version", "expected 1"}},
      {"syntax_error.json", {"", "JSON syntax error at line 1"}},
      {"prefix_cache_bare_capacity.json", {"/prefix_cache/capacity", "expected a size"}},
      {"prefix_cache_unknown_host.json", {"/prefix_cache/store_host", "unknown host \"rack9.h0\""}},
      {"prefix_cache_without_hash_ids.json", {"/prefix_cache/enabled", "hash_ids"}},
      {"instance_group_zero_count.json", {"/prefill/1/count", "integer >= 1"}},
      {"trace_bare_window.json", {"/workload/trace/window_end", "positive duration"}},
      {"synthetic_missing_length_file.json", {"/workload/synthetic/context/file", "no_such_lengths"}},
      {"slo_bare_ttft.json", {"/slo/ttft", "positive duration"}},
      {"cachegen_bare_slo.json", {"/methods/0/cachegen/slo", "positive duration"}},
      {"cachegen_unknown_key.json", {"/methods/0/cachegen/chunk_size", "unknown key"}},
  };
  for (const auto& [file, expected] : table) {
    CAPTURE(file);
    const ScenarioError e = load_error(file);
    CHECK(has_issue(e, expected.first, expected.second));
    CHECK(e.file().find(file) != std::string::npos);
  }
}

TEST_CASE("a JSON syntax error reports its line and column") {
  const ScenarioError e = load_error("syntax_error_line5.json");
  REQUIRE(e.issues().size() == 1);
  CHECK(e.issues()[0].message.find("line 5, column") != std::string::npos);
}

TEST_CASE("all errors of one file are reported together, one line each") {
  const ScenarioError e = load_error("many_errors.json");
  CHECK(has_issue(e, "/network/bandwidth", "got 25"));
  CHECK(has_issue(e, "/network/latency", "got \"fast\""));
  CHECK(has_issue(e, "/methods", "non-empty"));
  CHECK(has_issue(e, "/seed", "integer >= 0"));
  CHECK(has_issue(e, "/workload/requests/0/context", "integer >= 1"));
  CHECK(has_issue(e, "/workload/requests/0/extra", "unknown key"));
  CHECK(e.issues().size() == 6);
  const std::string text = e.what();
  CHECK(std::count(text.begin(), text.end(), '\n') == 5);
  CHECK(text.find("many_errors.json: /network/bandwidth: expected a rate like \"100Gbps\", got 25") !=
        std::string::npos);
}

TEST_CASE("an unreadable file is a ScenarioError") {
  CHECK_THROWS_AS(load_scenario(testing::bad_dir() / "no_such_file.json", {}, testing::data_paths()),
                  ScenarioError);
}
