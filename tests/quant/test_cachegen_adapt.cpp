#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "sim/quant/cachegen_adapt.hpp"
#include "sim/quant/cachegen_bench.hpp"

using namespace lynxsim::quant;

namespace {

const std::vector<std::uint64_t> kLevelBytes{400000, 200000, 100000};
constexpr std::uint64_t kTextBytes = 3000;

ChunkChoice choose(double bandwidth_bytes_per_s, double budget_s) {
  return cachegen_choose_level(ChunkChoiceInput{kLevelBytes, bandwidth_bytes_per_s, budget_s,
                                                kTextBytes});
}

}  // namespace

TEST_CASE("cachegen picks the highest level that fits the budget at the measured bandwidth") {
  CHECK(choose(1.0e6, 1.0).level == 0);
  CHECK(choose(4.0e5, 1.0).level == 0);
  CHECK(choose(3.99e5, 1.0).level == 1);
  CHECK(choose(1.5e5, 1.0).level == 2);
  const ChunkChoice fallback = choose(0.99e5, 1.0);
  CHECK(fallback.text);
  CHECK(fallback.bytes == kTextBytes);
  CHECK(fallback.transfer_time_s == doctest::Approx(kTextBytes / 0.99e5));
  const ChunkChoice mid = choose(2.5e5, 1.0);
  CHECK(mid.bytes == 200000);
  CHECK(mid.transfer_time_s == doctest::Approx(0.8));
}

TEST_CASE("cachegen moves to lower levels as bandwidth falls and to text under the floor") {
  int previous_level = 0;
  bool seen_text = false;
  for (double bandwidth = 2.0e6; bandwidth > 1.0e3; bandwidth *= 0.9) {
    const ChunkChoice choice = choose(bandwidth, 0.5);
    const bool under_floor = bandwidth * 0.5 < static_cast<double>(kLevelBytes.back());
    CHECK(choice.text == under_floor);
    if (choice.text) {
      seen_text = true;
      continue;
    }
    CHECK_FALSE(seen_text);
    CHECK(choice.level >= previous_level);
    previous_level = choice.level;
  }
  CHECK(previous_level == 2);
  CHECK(seen_text);
  CHECK(choose(0.0, 1.0).text);
  CHECK(choose(1.0e9, -1.0).text);
}

TEST_CASE("cachegen adaptation rejects impossible inputs") {
  CHECK_THROWS_AS(cachegen_choose_level(ChunkChoiceInput{{}, 1.0, 1.0, 1}), std::invalid_argument);
  CHECK_THROWS_AS(choose(-1.0, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(choose(std::nan(""), 1.0), std::invalid_argument);
  CHECK_THROWS_AS(cachegen_chunk_budget_s(1.0, 0.0, 0), std::invalid_argument);
  CHECK_THROWS_AS(CacheGenAdapter(0.0, 3, 1.0), std::invalid_argument);
}

TEST_CASE("the adapter shares the SLO left over the chunks left and follows measured bandwidth") {
  CHECK(cachegen_chunk_budget_s(2.0, 0.5, 3) == doctest::Approx(0.5));
  CHECK(cachegen_chunk_budget_s(2.0, 2.5, 3) == 0.0);
  CacheGenAdapter adapter(3.0, 3, 1.0e6);
  const ChunkChoice first = adapter.choose_next(kLevelBytes, kTextBytes);
  CHECK(first.level == 0);
  adapter.record_sent(first.bytes, 1.25);
  CHECK(adapter.bandwidth_bytes_per_s() == doctest::Approx(3.2e5));
  const ChunkChoice second = adapter.choose_next(kLevelBytes, kTextBytes);
  CHECK(second.level == 1);
  adapter.record_sent(second.bytes, 1.6);
  CHECK(adapter.elapsed_s() == doctest::Approx(2.85));
  CHECK(adapter.choose_next(kLevelBytes, kTextBytes).text);
  adapter.record_sent(kTextBytes, 0.01);
  CHECK(adapter.chunks_left() == 0);
  CHECK_THROWS_AS(adapter.choose_next(kLevelBytes, kTextBytes), std::runtime_error);
}

TEST_CASE("the codec benchmark reports positive throughput and a compressed size") {
  CacheGenBenchOptions options;
  options.num_tokens = 200;
  options.num_channels = 256;
  options.repeats = 1;
  const CacheGenThroughput result = cachegen_benchmark(options);
  CHECK(result.input_bytes == 2 * 2 * 200 * 256);
  CHECK(result.coded_bytes < result.input_bytes / 3);
  CHECK(result.encode_mb_per_s > 0.0);
  CHECK(result.decode_mb_per_s > 0.0);
  CHECK(std::isfinite(result.encode_mb_per_s));
  CHECK(cachegen_default_gpu_mb_per_s(10.0) == doctest::Approx(10.0 * kCacheGenGpuSpeedupOverCpuThread));
}
