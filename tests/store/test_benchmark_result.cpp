#include <doctest/doctest.h>

#include <string>

#include "sim/fields/issues.hpp"
#include "sim/store/benchmark_result.hpp"

using namespace lynxsim;

namespace {

std::string fixture(const char* name) {
  return std::string(LYNXSIM_SOURCE_DIR) + "/tests/fixtures/replay/" + name;
}

std::string first_pointer(const nlohmann::json& doc) {
  try {
    store::benchmark_result_from_json(doc, "doc");
  } catch (const fields::InputError& e) {
    return e.issues().at(0).json_path;
  }
  return "";
}

nlohmann::json small_result() {
  return nlohmann::json::parse(R"({"request_rate": 2.5, "burstiness": 0.5, "max_concurrency": null,
      "duration": 4.0, "request_throughput": 0.5, "input_lens": [100, 200], "output_lens": [3, 1],
      "ttfts": [0.1, 0.2], "itls": [[0.01, 0.02], []], "start_times": [50.5, 51.0],
      "errors": ["", ""], "label": "any other key is not read"})");
}

}  // namespace

TEST_CASE("a vllm bench serve result gives its requests and client settings") {
  const store::BenchmarkResult r = store::benchmark_result_from_json(small_result(), "doc");
  REQUIRE(r.requests.size() == 2);
  CHECK(r.requests[0].input_tokens == 100);
  CHECK(r.requests[0].output_tokens == 3);
  CHECK(r.requests[0].e2e_s == doctest::Approx(0.13));  // TTFT + the ITLs without "latencies"
  CHECK(r.requests[1].e2e_s == doctest::Approx(0.2));
  CHECK(*r.requests[0].sent_s == 0.0);                  // send times from the first send
  CHECK(*r.requests[1].sent_s == doctest::Approx(0.5));
  CHECK(*r.request_rate == 2.5);
  CHECK(r.burstiness == 0.5);
  CHECK(!r.max_concurrency);
  CHECK(r.request_throughput == 0.5);
}

TEST_CASE("the fixtures read as written: failed requests left out, inf rate, a concurrency") {
  const store::BenchmarkResult closed = store::read_benchmark_result(fixture("vllm_closed_loop.json"));
  CHECK(closed.requests.size() == 24);
  CHECK(closed.failed == 0);
  CHECK(*closed.max_concurrency == 4);
  CHECK(!closed.request_rate);
  const store::BenchmarkResult open = store::read_benchmark_result(fixture("vllm_open_loop.json"));
  CHECK(open.requests.size() == 12);
  CHECK(open.failed == 1);
  CHECK(*open.request_rate == 4.0);
}

TEST_CASE("malformed results name the JSON pointer") {
  nlohmann::json doc = small_result();
  doc["ttfts"] = {0.1};
  CHECK(first_pointer(doc) == "/ttfts");
  doc = small_result();
  doc["output_lens"][1] = -1;
  CHECK(first_pointer(doc) == "/output_lens/1");
  doc = small_result();
  doc["itls"][0][1] = "slow";
  CHECK(first_pointer(doc) == "/itls/0/1");
  doc = small_result();
  doc["request_rate"] = 0;
  CHECK(first_pointer(doc) == "/request_rate");
  doc = small_result();
  doc.erase("input_lens");
  CHECK(first_pointer(doc) == "/input_lens");
  doc = small_result();
  doc["latencies"] = {0.05, 0.3};
  CHECK(first_pointer(doc) == "/latencies/0");
  doc = small_result();
  doc["output_lens"] = {0, 0};
  CHECK(first_pointer(doc) == "/output_lens");
  CHECK_THROWS_AS(store::read_benchmark_result(fixture("genai_perf_profile_export.json")), fields::InputError);
  CHECK_THROWS_AS(store::read_benchmark_result(fixture("missing.json")), fields::InputError);
}
