#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sample_results.hpp"
#include "sim/report/requests_csv.hpp"
#include "sim/report/result_table.hpp"
#include "sim/report/summary_json.hpp"

using namespace lynxsim;
using namespace lynxsim::report;

namespace {

// The lynx sample result on a 2-prefill, 3-decode cluster: request 0 waited 30 ms for decode
// memory and fetched a 1024-token prefix in 5 ms, request 1 waited 40 ms for its KV transfer to be
// admitted and missed its SLO.
serving::MethodResult cluster_result() {
  auto result = testing::sample_results().back();
  auto& a = result.requests[0];
  auto& b = result.requests[1];
  a.memory_wait_time = Time::from_ms(30.0);
  a.cache_fetch_time = Time::from_ms(5.0);
  a.cached_tokens = 1024;
  a.prefill_instance = 1;
  a.decode_instance = 2;
  b.meets_slo = false;
  b.kv_admission_wait = Time::from_ms(40.0);
  serving::ClusterStats& c = result.cluster;
  c.num_prefill = 2;
  c.num_decode = 3;
  c.requests_per_s = 2.0;
  c.output_tokens_per_s = 22.0;
  c.requests_meeting_slo = 1;
  c.goodput_requests_per_s = 1.0;
  c.cache_lookup_blocks = 128;
  c.cache_hit_blocks = 2;
  c.cache_hit_tokens = 1024;
  c.cache_block_hit_rate = 2.0 / 128.0;
  c.peak_decode_memory_fraction = 0.75;
  c.links = {{4, 0.25, 0.5, "prefill->decode", {}}, {9, 0.125, 1.0, "", {}}};
  c.max_link_utilisation = 0.25;
  return result;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

}  // namespace

TEST_CASE("a method summary carries memory wait, cache fetch and the cluster figures") {
  const MethodSummary s = summarize_method(cluster_result());
  CHECK(s.memory_wait_s.mean == doctest::Approx(0.015));
  CHECK(s.memory_wait_s.p99 == doctest::Approx(0.0297));
  CHECK(s.cache_fetch_s.p50 == doctest::Approx(0.0025));
  CHECK(s.kv_admission_wait_s.mean == doctest::Approx(0.02));
  CHECK(s.kv_admission_wait_s.p50 == doctest::Approx(0.02));
  CHECK(s.cluster.num_prefill == 2);
  CHECK(s.cluster.num_decode == 3);
  CHECK(s.cluster.slo_attainment == doctest::Approx(0.5));
  CHECK(s.cluster.cached_token_fraction == doctest::Approx(1024.0 / 65536.0));
  CHECK(s.cluster.cache_hit_rate == doctest::Approx(1.0 / 64.0));
  CHECK(s.cluster.max_link_utilisation == doctest::Approx(0.25));
  CHECK(s.cluster.max_link_peak_utilisation == doctest::Approx(1.0));
  REQUIRE(s.cluster.links.size() == 2);
  CHECK(s.cluster.links.at(9).mean == doctest::Approx(0.125));
}

TEST_CASE("summary.json gains the cluster fields and keeps the schema-1 keys") {
  const std::vector<MethodSummary> summaries{summarize_method(cluster_result())};
  const auto parsed = nlohmann::json::parse(summary_json("demo", summaries).dump(2));
  CHECK(parsed.at("schema_version") == 1);
  const auto& m = parsed.at("methods").at("lynx");
  for (const char* key : {"ttft_s", "ttft_commit_s", "tpot_s", "e2e_s", "exposed_transfer_s",
                          "prefill_queue_s", "decode_admission_s", "bytes_total", "rollbacks",
                          "wasted_draft_tokens", "speedup_vs", "accuracy"}) {
    CHECK_MESSAGE(m.contains(key), key);
  }
  CHECK(m.at("memory_wait_s").at("mean").get<double>() == doctest::Approx(0.015));
  CHECK(m.at("cache_fetch_s").at("p90").get<double>() == doctest::Approx(0.0045));
  CHECK(m.at("kv_admission_wait_s").at("p99").get<double>() == doctest::Approx(0.0396));
  CHECK(m.at("requests_per_s").get<double>() == doctest::Approx(2.0));
  CHECK(m.at("output_tokens_per_s").get<double>() == doctest::Approx(22.0));
  CHECK(m.at("goodput_requests_per_s").get<double>() == doctest::Approx(1.0));
  CHECK(m.at("requests_meeting_slo") == 1);
  CHECK(m.at("slo_attainment").get<double>() == doctest::Approx(0.5));
  CHECK(m.at("cache_hit_rate").get<double>() == doctest::Approx(1.0 / 64.0));
  CHECK(m.at("cache_hit_tokens") == 1024);
  CHECK(m.at("peak_decode_memory_fraction").get<double>() == doctest::Approx(0.75));
  CHECK(m.at("max_link_utilisation").get<double>() == doctest::Approx(0.25));
  CHECK(m.at("link_mean_utilisation").at("prefill->decode").get<double>() == doctest::Approx(0.25));
  CHECK(m.at("link_peak_utilisation").at("9").get<double>() == doctest::Approx(1.0));
  CHECK(m.at("prefill_instances") == 2);
  CHECK(m.at("decode_instances") == 3);
}

TEST_CASE("requests.csv holds the instances, cache, memory wait and SLO of each request") {
  const std::vector<serving::MethodResult> results{cluster_result()};
  const std::string csv = requests_csv(results);
  std::vector<std::string> lines;
  std::stringstream in(csv);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 3);
  const auto header = split(lines[0]);
  const auto first = split(lines[1]);
  const auto second = split(lines[2]);
  REQUIRE(first.size() == header.size());
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    REQUIRE(it != header.end());
    return static_cast<std::size_t>(it - header.begin());
  };
  CHECK(first[column("prefill_instance")] == "1");
  CHECK(first[column("decode_instance")] == "2");
  CHECK(first[column("cached_tokens")] == "1024");
  CHECK(first[column("cache_fetch_s")] == "0.005000000000");
  CHECK(first[column("memory_wait_s")] == "0.030000000000");
  CHECK(first[column("meets_slo")] == "1");
  CHECK(second[column("meets_slo")] == "0");
  CHECK(second[column("memory_wait_s")] == "0.000000000000");
  CHECK(first[column("kv_admission_wait_s")] == "0.000000000000");
  CHECK(second[column("kv_admission_wait_s")] == "0.040000000000");
}

TEST_CASE("the cluster table shows throughput, goodput, cache and memory figures") {
  const std::vector<MethodSummary> summaries{summarize_method(cluster_result())};
  const std::string table = format_cluster_table(summaries);
  CHECK(table.find("req/s") != std::string::npos);
  const auto row_at = table.find("\nlynx");
  REQUIRE(row_at != std::string::npos);
  const std::string row = table.substr(row_at + 1);
  CHECK(row.find("2+3") != std::string::npos);
  CHECK(row.find("2.000") != std::string::npos);
  CHECK(row.find("22.0") != std::string::npos);
  CHECK(row.find("50.0%") != std::string::npos);
  CHECK(row.find("1.6%") != std::string::npos);
  CHECK(row.find("75.0%") != std::string::npos);
  CHECK(row.find("25.0%") != std::string::npos);
  CHECK(row.find("15.00ms") != std::string::npos);
  CHECK(row.find("20.00ms") != std::string::npos);
}
