#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "sample_results.hpp"
#include "sim/report/method_summary.hpp"
#include "sim/report/requests_csv.hpp"
#include "sim/report/summary_json.hpp"

using namespace lynxsim;
using namespace lynxsim::report;

TEST_CASE("summary.json names the serving engine of the run when it has one") {
  const auto summaries = summarize_methods(testing::sample_results());
  CHECK(summary_json("demo", summaries, "vllm").at("engine") == "vllm");
  CHECK_FALSE(summary_json("demo", summaries).contains("engine"));
}

TEST_CASE("summary.json parses back with the expected fields") {
  const auto summaries = summarize_methods(testing::sample_results());
  const auto parsed = nlohmann::json::parse(summary_json("demo", summaries).dump(2));
  CHECK(parsed.at("schema_version") == 1);
  CHECK(parsed.at("scenario") == "demo");
  CHECK(parsed.at("method_order") == nlohmann::json::array({"bf16", "int8", "lynx"}));
  const auto& lynx = parsed.at("methods").at("lynx");
  CHECK(lynx.at("stream") == "committed");
  CHECK(lynx.at("first_token_from") == "decode");
  CHECK(lynx.at("ttft_s").at("mean").get<double>() == doctest::Approx(0.35));
  CHECK(lynx.at("ttft_speculative_s").at("mean").get<double>() == doctest::Approx(0.2));
  CHECK(lynx.at("ttft_commit_s").at("p99").get<double>() == doctest::Approx(0.35));
  CHECK(lynx.at("ttdt_speculative_s").at("mean").get<double>() == doctest::Approx(0.2));
  CHECK(lynx.at("ttdt_commit_s").at("mean").get<double>() == doctest::Approx(0.35));
  CHECK(lynx.at("retracted_tokens") == 0);
  for (const char* key : {"tpot_s", "e2e_s", "exposed_transfer_s", "prefill_queue_s"}) {
    CHECK(lynx.at(key).contains("p90"));
  }
  CHECK(lynx.at("bytes_per_plane") == nlohmann::json::array({8000, 8000}));
  CHECK(lynx.at("bytes_total") == 16000);
  CHECK(lynx.at("rollbacks") == 1);
  CHECK(lynx.at("wasted_draft_tokens") == 1);
  CHECK(lynx.at("acceptance").get<double>() == doctest::Approx(0.9));
  CHECK(lynx.at("accuracy").at("k_snr_db").get<double>() == doctest::Approx(21.5));
  CHECK(lynx.at("speedup").at("ttft_speculative_s").at("int8").get<double>() == doctest::Approx(1.5));
  CHECK(lynx.at("speedup").at("ttft_commit_s").at("bf16").get<double>() ==
        doctest::Approx(500.0 / 350.0));
  CHECK(lynx.at("speedup_vs").at("int8").get<double>() == doctest::Approx(300.0 / 350.0));
  CHECK(lynx.at("speedup_vs").at("bf16").get<double>() == doctest::Approx(500.0 / 350.0));
}

TEST_CASE("summary.json is byte-identical for identical input") {
  const auto a = summary_json("demo", summarize_methods(testing::sample_results())).dump(2);
  const auto b = summary_json("demo", summarize_methods(testing::sample_results())).dump(2);
  CHECK(a == b);
}

TEST_CASE("requests.csv has one row per request and method") {
  const auto results = testing::sample_results();
  const std::string csv = requests_csv(results);
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl = csv.find('\n'); nl != std::string::npos; nl = csv.find('\n', start)) {
    lines.push_back(csv.substr(start, nl - start));
    start = nl + 1;
  }
  REQUIRE(lines.size() == 1 + 6);
  CHECK(lines[0].rfind("method,id,context_tokens", 0) == 0);
  CHECK(lines[0].find("plane1_bytes") != std::string::npos);
  const auto columns = std::count(lines[0].begin(), lines[0].end(), ',');
  for (const auto& line : lines) CHECK(std::count(line.begin(), line.end(), ',') == columns);
  CHECK(lines[1].rfind("bf16,0,32768,11,0.000000000000,0.001000000000,", 0) == 0);
  CHECK(lines[1].back() == ',');
  CHECK(lines[6].rfind("lynx,1,", 0) == 0);
  CHECK(lines[6].find(",8000,0,0,0,0,0,0,,4000,4000") != std::string::npos);
  CHECK(lines[0].find(",bytes_total,kv_bytes_sent,kv_bytes_wasted,kv_timeouts,reprefilled,degraded,"
                      "failed,cause,plane0_bytes") != std::string::npos);
  CHECK(lines[0].find(",wasted_draft_tokens,retracted_tokens,") != std::string::npos);
  CHECK(lines[0].find(",ttft_speculative_s,ttdt_speculative_s,ttdt_commit_s,") != std::string::npos);
}

TEST_CASE("requests.csv counts the retracted drafts of a request whose drafts streamed") {
  const std::string committed = requests_csv(testing::sample_results());
  const std::string streamed = requests_csv(testing::streaming_drafts());
  CHECK(committed.find("lynx,0,") != std::string::npos);
  CHECK(committed.find(",1,0,11,") != std::string::npos);
  CHECK(streamed.find(",1,1,11,") != std::string::npos);
}

TEST_CASE("requests.csv counts cachegen chunks per quality level, empty for other methods") {
  auto results = testing::sample_results();
  auto& coded = results.back().requests;
  coded[0].cachegen_chunks_per_level = {3, 1, 0, 0};
  coded[0].cachegen_text_chunks = 2;
  coded[1].cachegen_chunks_per_level = {0, 5, 0, 0};
  const std::string csv = requests_csv(results);
  const std::string head = csv.substr(0, csv.find('\n'));
  CHECK(head.find(",plane1_bytes,cachegen_text_chunks,cachegen_level0_chunks,"
                  "cachegen_level1_chunks,cachegen_level2_chunks,cachegen_level3_chunks") !=
        std::string::npos);
  CHECK(csv.find(",8000,0,0,0,0,0,0,,4000,4000,2,3,1,0,0\n") != std::string::npos);
  CHECK(csv.find(",8000,0,0,0,0,0,0,,4000,4000,0,0,5,0,0\n") != std::string::npos);
  CHECK(csv.find(",,,,,\n") != std::string::npos);
  const auto summaries = summarize_methods(results);
  CHECK(summaries.back().cachegen_chunks_per_level == std::vector<std::int64_t>{3, 6, 0, 0});
  CHECK(summaries.back().cachegen_text_chunks == 2);
  CHECK(summaries.front().cachegen_chunks_per_level.empty());
}

TEST_CASE("times are written as exact decimal seconds") {
  CHECK(exact_seconds(Time::from_ps(1)) == "0.000000000001");
  CHECK(exact_seconds(Time::from_seconds(12.5)) == "12.500000000000");
  CHECK(exact_seconds(Time::from_ps(-1'500'000'000'000)) == "-1.500000000000");
}

TEST_CASE("csv text fields are quoted when needed") {
  CHECK(csv_field("lynx") == "lynx");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
}

TEST_CASE("a failed request is counted and listed but left out of the latency statistics") {
  auto results = testing::sample_results();
  auto& bf16 = results.front().requests;
  bf16[1].failure = serving::FailureCause::kv_transfer_timeout;
  bf16[1].kv_timeouts = 2;
  bf16[1].kv_bytes_sent = Bytes{700};
  bf16[1].kv_bytes_wasted = Bytes{700};
  bf16[0].degraded = true;
  const auto summaries = summarize_methods(results);
  const MethodSummary& s = summaries.front();
  CHECK(s.num_requests == 2);
  CHECK(s.failed_requests == 1);
  CHECK(s.degraded_requests == 1);
  CHECK(s.kv_timeouts == 2);
  CHECK(s.kv_bytes_wasted == 700);
  CHECK(s.ttft_s.p99 == doctest::Approx(0.4));
  CHECK(s.ttft_s.mean == doctest::Approx(0.4));
  const auto json = summary_json("demo", summaries);
  CHECK(json["methods"]["bf16"]["failed_requests"] == 1);
  CHECK(json["methods"]["bf16"]["kv_bytes_sent"] == 700);
  const std::string csv = requests_csv(results);
  CHECK(csv.find(",700,700,2,0,0,1,kv_transfer_timeout,") != std::string::npos);
}
