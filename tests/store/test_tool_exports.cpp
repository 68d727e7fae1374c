#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "sim/fields/issues.hpp"
#include "sim/store/aiperf_export.hpp"
#include "sim/store/genai_perf_export.hpp"

using namespace lynxsim;
using nlohmann::json;

namespace {

std::string first_pointer(const std::function<void()>& read) {
  try {
    read();
  } catch (const fields::InputError& e) {
    return e.issues().at(0).json_path;
  }
  return "";
}

std::string event(const std::string& text) {
  return "data: " + json{{"object", "text_completion"}, {"choices", {{{"index", 0}, {"text", text}}}}}.dump() + "\n\n";
}

// Request 0: a token-id prompt of 3, 3 tokens forced by ignore_eos, at 100, 110 and 120 ms; request
// 1: nothing but "[DONE]" (genai-perf skips it).
json genai_perf_export() {
  const json body = {{"prompt", {5, 6, 7}}, {"max_tokens", 3}, {"ignore_eos", true}, {"stream", true}};
  const std::int64_t t0 = 1'765'000'000'000'000'000;
  json done = {{"response", "data: [DONE]\n\n"}};
  json first = {{"timestamp", t0},
                {"request_inputs", {{"payload", body.dump()}}},
                {"response_timestamps", {t0 + 100'000'000, t0 + 110'000'000, t0 + 120'000'000, t0 + 120'000'000}},
                {"response_outputs", {{{"response", event("a")}}, {{"response", event("b")}},
                                      {{"response", event("c")}}, done}}};
  json second = {{"timestamp", t0 + 50'000'000}, {"request_inputs", {{"payload", body.dump()}}},
                 {"response_timestamps", {t0 + 60'000'000}}, {"response_outputs", {done}}};
  return {{"service_kind", "openai"},
          {"experiments", {{{"experiment", {{"mode", "concurrency"}, {"value", 2}}}, {"requests", {first, second}}}}}};
}

json with_payload(json doc, const json& body) {
  doc["experiments"][0]["requests"][0]["request_inputs"]["payload"] = body.dump();
  return doc;
}

std::string genai_perf_pointer(const json& doc, const json& settings = json()) {
  return first_pointer([&] { store::genai_perf_result_from_json(doc, "doc", {settings, "settings"}); });
}

json chat_body() {
  return {{"messages", {{{"role", "user"}, {"content", "a prompt"}}}}, {"max_tokens", 3}, {"min_tokens", 3}};
}

json synthetic(double stddev) {
  return {{"input_config", {{"synthetic_input_tokens_mean", 550}, {"synthetic_input_tokens_stddev", stddev},
                            {"input_file", nullptr}}}};
}

const char* kRecord =
    R"({"metadata": {"request_start_ns": 2000000000, "benchmark_phase": "profiling", "was_cancelled": false},)"
    R"( "metrics": {"input_sequence_length": {"value": 550, "unit": "tokens"},)"
    R"( "output_sequence_length": {"value": 9, "unit": "tokens"},)"
    R"( "time_to_first_token": {"value": 255.0, "unit": "ms"}, "request_latency": {"value": 0.5, "unit": "sec"}},)"
    R"( "error": null})";

std::string aiperf_pointer(const std::string& text) {
  return first_pointer([&] { store::aiperf_result_from_lines(text, "doc", {}); });
}

void check_request(const store::MeasuredRequest& m, int input, int output, double ttft_s, double e2e_s) {
  CHECK(m.input_tokens == input);
  CHECK(m.output_tokens == output);
  CHECK(m.ttft_s == doctest::Approx(ttft_s));
  CHECK(m.e2e_s == doctest::Approx(e2e_s));
}

}  // namespace

TEST_CASE("genai-perf: lengths from token ids and a forced max_tokens, times as genai-perf computes them") {
  const store::BenchmarkResult r = store::genai_perf_result_from_json(genai_perf_export(), "doc", {});
  REQUIRE(r.requests.size() == 1);
  CHECK(r.failed == 1);
  check_request(r.requests[0], 3, 3, 0.1, 0.12);
  CHECK(*r.max_concurrency == 2);
  CHECK(r.request_throughput == doctest::Approx(2.0 / 0.12));  // every request, as genai-perf counts
}

TEST_CASE("genai-perf: a text prompt is exact only through synthetic settings with stddev 0") {
  const json doc = with_payload(genai_perf_export(), chat_body());
  const std::string payload = "/experiments/0/requests/0/request_inputs/payload";
  CHECK(genai_perf_pointer(doc) == payload);
  CHECK(genai_perf_pointer(doc, synthetic(5.0)) == payload);
  const store::BenchmarkResult r = store::genai_perf_result_from_json(doc, "doc", {synthetic(0.0), "settings"});
  CHECK(r.requests.at(0).input_tokens == 550);
  CHECK(r.requests.at(0).output_tokens == 3);
}

TEST_CASE("genai-perf: refusals name the JSON pointer") {
  json body = chat_body();
  body.erase("min_tokens");
  CHECK(genai_perf_pointer(with_payload(genai_perf_export(), body), synthetic(0.0)) ==
        "/experiments/0/requests/0/request_inputs/payload");
  body["max_tokens"] = 2;
  body["ignore_eos"] = true;
  CHECK(genai_perf_pointer(with_payload(genai_perf_export(), body), synthetic(0.0)) ==
        "/experiments/0/requests/0/response_timestamps");
  json doc = genai_perf_export();
  doc["experiments"].push_back(doc["experiments"][0]);
  CHECK(genai_perf_pointer(doc) == "/experiments");
  doc = genai_perf_export();
  doc["experiments"][0]["requests"][0]["response_outputs"][1]["response"] = "data: {not json";
  CHECK(genai_perf_pointer(doc) == "/experiments/0/requests/0/response_outputs/1/response");
  doc = genai_perf_export();
  doc["experiments"][0]["requests"][0]["response_timestamps"].erase(0);
  CHECK(genai_perf_pointer(doc) == "/experiments/0/requests/0/response_outputs");
  doc = genai_perf_export();
  doc["experiments"][0]["requests"][0].erase("timestamp");
  CHECK(genai_perf_pointer(doc) == "/experiments/0/requests/0/timestamp");
  CHECK(genai_perf_pointer(genai_perf_export(), json{{"input_config", {{"synthetic_input_tokens_stddev", "0"}}}}) ==
        "/input_config/synthetic_input_tokens_stddev");
}

TEST_CASE("AIPerf: per-request lengths and times, failed and warmup records left out") {
  json failed = json::parse(kRecord);
  failed["error"] = {{"code", 500}, {"type", "InternalServerError"}, {"message", "x"}};
  json warmup = json::parse(kRecord);
  warmup["metadata"]["benchmark_phase"] = "warmup";
  const std::string text = std::string(kRecord) + "\n\n" + failed.dump() + "\n" + warmup.dump() + "\n";
  const store::BenchmarkResult r = store::aiperf_result_from_lines(text, "doc", {});
  REQUIRE(r.requests.size() == 1);
  CHECK(r.failed == 1);
  check_request(r.requests[0], 550, 9, 0.255, 0.5);
  CHECK(*r.requests[0].sent_s == 0.0);
  CHECK(r.request_throughput == doctest::Approx(2.0));
  CHECK(!r.max_concurrency);
}

TEST_CASE("AIPerf: the client from the loadgen settings beside the file") {
  const json settings = {{"input_config", {{"loadgen", {{"concurrency", 8}, {"request_rate", 2.0},
                                                        {"request_rate_mode", "constant"}}}}}};
  const store::BenchmarkResult r = store::aiperf_result_from_lines(kRecord, "doc", {settings, "s"});
  CHECK(*r.max_concurrency == 8);
  CHECK(*r.request_rate == 2.0);
  CHECK(r.burstiness == 1e6);
  const json bad = {{"input_config", {{"loadgen", {{"concurrency", 0}}}}}};
  CHECK(first_pointer([&] { store::aiperf_result_from_lines(kRecord, "doc", {bad, "s"}); }) ==
        "/input_config/loadgen/concurrency");
}

TEST_CASE("AIPerf: refusals name the line and the JSON pointer") {
  json r = json::parse(kRecord);
  r["metrics"]["time_to_first_token"]["unit"] = "tokens";
  CHECK(aiperf_pointer(r.dump()) == "/1/metrics/time_to_first_token/unit");
  CHECK(aiperf_pointer(std::string(kRecord) + "\n{not json}\n") == "/2");
  r = json::parse(kRecord);
  r["metrics"].erase("time_to_first_token");
  CHECK(aiperf_pointer(r.dump()) == "/1/metrics/time_to_first_token");
  r = json::parse(kRecord);
  r["metrics"]["output_sequence_length"]["value"] = 2.5;
  CHECK(aiperf_pointer(r.dump()) == "/1/metrics/output_sequence_length/value");
  r = json::parse(kRecord);
  r["metadata"].erase("request_start_ns");
  CHECK(aiperf_pointer(r.dump()) == "/1/metadata/request_start_ns");
  CHECK_THROWS_AS(store::aiperf_result_from_lines("\n", "doc", {}), fields::InputError);
}
