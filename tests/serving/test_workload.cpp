#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "sim/serving/prefix_cache.hpp"
#include "sim/serving/workload_synthetic.hpp"
#include "sim/scenario/length_file.hpp"
#include "sim/scenario/workload_trace.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;
using namespace lynxsim::scenario;

namespace {

std::filesystem::path trace_path(const char* name) {
  return std::filesystem::path(LYNXSIM_SOURCE_DIR) / "scenarios" / "traces" / name;
}

std::filesystem::path write_temp(const char* name, const std::string& text) {
  const auto dir = std::filesystem::path(LYNXSIM_BINARY_DIR) / "serving_workload";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::filesystem::path& file, TraceFormat format) {
  try {
    read_trace(file, format);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the Mooncake conversation trace reads 12031 requests with their prefix blocks") {
  const auto requests = read_trace(trace_path("mooncake_conversation.jsonl"), TraceFormat::mooncake);
  REQUIRE(requests.size() == 12031);
  CHECK(requests.front().context_tokens == 6758);
  CHECK(requests.front().output_tokens == 500);
  CHECK(requests.front().hash_ids.size() == 14);
  CHECK(requests.back().arrival_at == Time::from_ms(3536999));
  for (const auto& r : requests) {
    CHECK(static_cast<int>(r.hash_ids.size()) == (r.context_tokens + 511) / 512);
  }
}

TEST_CASE("trace options scale time, cut a window and limit the count") {
  TraceOptions o;
  o.time_scale = 0.5;
  o.window_start = Time::from_seconds(100);
  o.window_end = Time::from_seconds(200);
  const auto all = read_trace(trace_path("mooncake_conversation.jsonl"), TraceFormat::mooncake);
  const auto cut = read_trace(trace_path("mooncake_conversation.jsonl"), TraceFormat::mooncake, o);
  std::size_t expected = 0;
  for (const auto& r : all) {
    expected += r.arrival_at >= Time::from_seconds(100) && r.arrival_at < Time::from_seconds(200);
  }
  REQUIRE(cut.size() == expected);
  REQUIRE_FALSE(cut.empty());
  CHECK(cut.back().arrival_at < Time::from_seconds(50));
  o.max_requests = 7;
  CHECK(read_trace(trace_path("mooncake_conversation.jsonl"), TraceFormat::mooncake, o).size() == 7);
}

TEST_CASE("a repeated trace window replays its requests shifted by the scaled window length") {
  TraceOptions o;
  o.time_scale = 0.25;
  o.window_start = Time::from_seconds(100);
  o.window_end = Time::from_seconds(160);
  const auto once = read_trace(trace_path("mooncake_conversation.jsonl"), TraceFormat::mooncake, o);
  o.repeat = 3;
  const auto thrice = read_trace(trace_path("mooncake_conversation.jsonl"), TraceFormat::mooncake, o);
  REQUIRE_FALSE(once.empty());
  REQUIRE(thrice.size() == 3 * once.size());
  const Time span = Time::from_seconds(15);
  for (std::size_t k = 0; k < 3; ++k) {
    for (std::size_t i = 0; i < once.size(); ++i) {
      const RequestSpec& copy = thrice[k * once.size() + i];
      CHECK(copy.arrival_at == once[i].arrival_at + span * static_cast<std::int64_t>(k));
      CHECK(copy.context_tokens == once[i].context_tokens);
      CHECK(copy.hash_ids == once[i].hash_ids);
    }
  }
  o.max_total_requests = static_cast<std::int64_t>(2 * once.size());
  CHECK_THROWS_AS(read_trace(trace_path("mooncake_conversation.jsonl"), TraceFormat::mooncake, o),
                  TraceError);
}

TEST_CASE("the Azure code trace starts at zero and keeps wall-clock gaps") {
  const auto requests = read_trace(trace_path("azure_llm_2023_code.csv"), TraceFormat::azure);
  REQUIRE(requests.size() == 8819);
  CHECK(requests[0].arrival_at == Time::zero());
  CHECK(requests[0].context_tokens == 4808);
  CHECK(requests[1].arrival_at.seconds() == doctest::Approx(0.052).epsilon(1e-6));
  CHECK(*parse_wall_clock_seconds("1970-01-02 00:00:01.5") == doctest::Approx(86401.5));
  CHECK(*parse_wall_clock_seconds("2000-03-01 00:00:00") == doctest::Approx(951868800.0));
  CHECK_FALSE(parse_wall_clock_seconds("2023-13-01 00:00:00"));
}

TEST_CASE("a Splitwise CSV finds its columns by name") {
  const auto file = write_temp("splitwise.csv",
                               "request_id,num_decode_tokens,arrived_at,num_prefill_tokens\n"
                               "0,20,0.5,1000\n1,30,0.25,2000\n");
  const auto requests = read_trace(file, TraceFormat::splitwise);
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].context_tokens == 2000);
  CHECK(requests[0].arrival_at == Time::from_ms(250));
  CHECK(requests[1].output_tokens == 20);
}

TEST_CASE("trace readers reject malformed lines with the file and line number") {
  const auto moon = write_temp("bad.jsonl",
                               "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 2}\n"
                               "{\"timestamp\": 1, \"input_length\": 0, \"output_length\": 2}\n");
  CHECK(error_of(moon, TraceFormat::mooncake).find("bad.jsonl:2: \"input_length\"") != std::string::npos);
  const auto moon_syntax = write_temp("syntax.jsonl", "{\"timestamp\": 0,\n");
  CHECK(error_of(moon_syntax, TraceFormat::mooncake).find("syntax.jsonl:1: not a JSON") != std::string::npos);
  const auto azure = write_temp("bad_azure.csv",
                                "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                "2023-11-16 18:17:03.9799600,10,2\n"
                                "2023-11-16 18:17:04,x,2\n");
  CHECK(error_of(azure, TraceFormat::azure).find("bad_azure.csv:3: the context length") != std::string::npos);
  const auto azure_time = write_temp("bad_time.csv", "TIMESTAMP,ContextTokens,GeneratedTokens\nyesterday,1,1\n");
  CHECK(error_of(azure_time, TraceFormat::azure).find("bad_time.csv:2: bad arrival time") != std::string::npos);
  const auto split = write_temp("bad_split.csv", "arrived_at,num_prefill_tokens\n0,1\n");
  CHECK(error_of(split, TraceFormat::splitwise).find("bad_split.csv:1: the header has no column \"num_decode_tokens\"") != std::string::npos);
  const auto fields = write_temp("fields.csv", "arrived_at,num_prefill_tokens,num_decode_tokens\n0,1\n");
  CHECK(error_of(fields, TraceFormat::splitwise).find("fields.csv:2: expected 3 fields, got 2") != std::string::npos);
  CHECK_THROWS_AS(read_trace(write_temp("x", "") / "missing", TraceFormat::azure), TraceError);
}

TEST_CASE("Poisson arrivals have the configured rate and gamma gaps the configured burstiness") {
  SyntheticWorkload w;
  w.count = 20000;
  w.rate_per_s = 4.0;
  w.context = {LengthKind::uniform, 1, 100, 200};
  w.output = {LengthKind::fixed, 7};
  for (const double b : {1.0, 4.0}) {
    w.process = b == 1.0 ? ArrivalProcess::poisson : ArrivalProcess::gamma;
    w.burstiness = b;
    const auto requests = generate_workload(w, 3);
    REQUIRE(requests.size() == 20000);
    double sum = 0.0, sum2 = 0.0, prev = 0.0;
    for (const auto& r : requests) {
      const double gap = r.arrival_at.seconds() - prev;
      prev = r.arrival_at.seconds();
      sum += gap;
      sum2 += gap * gap;
      CHECK(r.context_tokens >= 100);
      CHECK(r.context_tokens <= 200);
      CHECK(r.output_tokens == 7);
    }
    const double mean = sum / 20000.0;
    const double cv2 = (sum2 / 20000.0 - mean * mean) / (mean * mean);
    CHECK(mean == doctest::Approx(0.25).epsilon(0.05));
    CHECK(cv2 == doctest::Approx(b).epsilon(0.12));
  }
}

TEST_CASE("lognormal and empirical lengths, a duration limit, and equal seeds") {
  SyntheticWorkload w;
  w.duration = Time::from_seconds(100);
  w.rate_per_s = 10.0;
  w.context = {LengthKind::lognormal, 1, 1, 1 << 20, std::log(2000.0), 0.5};
  w.output = {LengthKind::empirical, 1, 1, 1 << 20, 0.0, 0.0, {3, 5}};
  const auto a = generate_workload(w, 9);
  const auto b = generate_workload(w, 9);
  REQUIRE(a.size() == b.size());
  CHECK(a.size() > 900);
  CHECK(a.back().arrival_at <= Time::from_seconds(100));
  std::vector<int> contexts;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].arrival_at == b[i].arrival_at);
    CHECK(a[i].context_tokens == b[i].context_tokens);
    CHECK((a[i].output_tokens == 3 || a[i].output_tokens == 5));
    contexts.push_back(a[i].context_tokens);
  }
  std::sort(contexts.begin(), contexts.end());
  CHECK(contexts[contexts.size() / 2] == doctest::Approx(2000).epsilon(0.06));
  w.rate_per_s = 0.0;
  CHECK_THROWS_AS(generate_workload(w, 1), std::invalid_argument);
}

TEST_CASE("the prefix cache hits leading blocks only and evicts the least recently used") {
  PrefixCache cache(Bytes{300}, Bytes{100});
  const std::vector<std::uint32_t> a{1, 2, 3};
  CHECK(cache.lookup(a) == 0);
  cache.insert(a);
  CHECK(cache.lookup(std::vector<std::uint32_t>{1, 2, 9}) == 2);
  CHECK(cache.lookup(std::vector<std::uint32_t>{2, 3}) == 2);
  CHECK(cache.lookup(std::vector<std::uint32_t>{9, 1}) == 0);
  cache.insert(std::vector<std::uint32_t>{1, 4});
  CHECK(cache.resident_blocks() == 3);
  CHECK(cache.counters().evicted_blocks == 1);
  CHECK(cache.lookup(std::vector<std::uint32_t>{1, 4}) == 2);
  CHECK(cache.lookup(std::vector<std::uint32_t>{3}) == 0);
  CHECK(cache.counters().hit_blocks == 6);
}

TEST_CASE("without a window end a repeat is shifted by the last arrival plus the mean gap") {
  TraceOptions o;
  o.max_requests = 5;
  const auto once = read_trace(trace_path("mooncake_conversation.jsonl"), TraceFormat::mooncake, o);
  o.repeat = 2;
  const auto twice = read_trace(trace_path("mooncake_conversation.jsonl"), TraceFormat::mooncake, o);
  REQUIRE(once.size() == 5);
  REQUIRE(twice.size() == 10);
  const Time span = once.back().arrival_at +
                    Time::from_seconds((once.back().arrival_at - once.front().arrival_at).seconds() / 4);
  CHECK(twice[5].arrival_at == once[0].arrival_at + span);
}
