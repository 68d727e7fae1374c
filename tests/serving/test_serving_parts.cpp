// Serving internals on their own, against closed-form expectations: the prefix cache's LRU and
// longest-prefix rule, verification of speculative drafts, and the decode-memory admission check.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "serving_fixture.hpp"
#include "sim/compute/timing_model.hpp"
#include "sim/core/rng.hpp"
#include "sim/serving/capacity_check.hpp"
#include "sim/serving/prefix_cache.hpp"
#include "sim/serving/speculation.hpp"

using namespace lynxsim;
using namespace lynxsim::serving;

TEST_CASE("the prefix cache finds the longest resident prefix and evicts the least recently used") {
  PrefixCache cache(Bytes{300}, Bytes{100});
  const std::vector<std::uint32_t> first{1, 2, 3};
  CHECK(cache.lookup(first) == 0);
  cache.insert(first);
  CHECK(cache.resident_blocks() == 3);
  CHECK(cache.used() == Bytes{300});
  const std::vector<std::uint32_t> branch{1, 2, 4};
  CHECK(cache.lookup(branch) == 2);
  const std::vector<std::uint32_t> gap{4, 1, 2};
  CHECK(cache.lookup(gap) == 0);
  cache.insert(std::vector<std::uint32_t>{5});
  CHECK(cache.resident_blocks() == 3);
  CHECK(cache.lookup(std::vector<std::uint32_t>{3}) == 0);
  CHECK(cache.lookup(std::vector<std::uint32_t>{1, 2, 5}) == 3);
  const PrefixCacheCounters& c = cache.counters();
  CHECK(c.lookup_blocks == 3 + 3 + 3 + 1 + 3);
  CHECK(c.hit_blocks == 0 + 2 + 0 + 0 + 3);
  CHECK(c.evicted_blocks == 1);
}

TEST_CASE("an unlimited prefix cache keeps every block") {
  PrefixCache cache(Bytes{0}, Bytes{100});
  for (std::uint32_t i = 0; i < 1000; ++i) cache.insert(std::vector<std::uint32_t>{i});
  CHECK(cache.resident_blocks() == 1000);
  CHECK(cache.counters().evicted_blocks == 0);
}

TEST_CASE("verification commits the accepted drafts plus one token") {
  RngStream rng(7);
  const VerificationOutcome all = verify_drafts(rng, 1.0, 12);
  CHECK(all.accepted == 12);
  CHECK(all.committed == 13);
  CHECK(all.wasted == 0);
  CHECK_FALSE(all.rollback);
  const VerificationOutcome none = verify_drafts(rng, 0.0, 12);
  CHECK(none.accepted == 0);
  CHECK(none.committed == 1);
  CHECK(none.wasted == 12);
  CHECK(none.rollback);
}

TEST_CASE("the accepted prefix has the truncated geometric mean p (1 - p^k) / (1 - p)") {
  const double p = 0.8;
  const int k = 10;
  const int draws = 200'000;
  RngStream rng(11);
  double sum = 0.0;
  double sum_sq = 0.0;
  int out_of_range = 0;
  for (int i = 0; i < draws; ++i) {
    const int a = draw_accepted_prefix(rng, p, k);
    if (a < 0 || a > k) ++out_of_range;
    sum += a;
    sum_sq += static_cast<double>(a) * a;
  }
  CHECK(out_of_range == 0);
  const double mean = sum / draws;
  const double sd = std::sqrt(sum_sq / draws - mean * mean);
  const double expected = p * (1.0 - std::pow(p, k)) / (1.0 - p);
  CHECK(std::fabs(mean - expected) < 4.0 * sd / std::sqrt(draws));
}

namespace {

ServingConfig decode_config(int context) {
  ServingConfig c;
  c.model = test::model_card("llama-3.1-8b");
  c.decode = {test::gpu_profile("h100-sxm"), 1, 1};
  c.requests = {RequestSpec{Time::zero(), context, 1}};
  return c;
}

}  // namespace

TEST_CASE("a request fits decode memory up to (usable HBM - weights) / KV bytes per token") {
  ServingConfig c = decode_config(1);
  const TimingModel timing(c.model, c.decode.gpu, 1);
  const ModelSpec& m = c.model;
  CHECK(timing.kv_bytes_per_token_per_rank().value ==
        2LL * m.num_layers * m.num_kv_heads * m.head_dim * 2);
  const double usable = static_cast<double>(c.decode.gpu.hbm_capacity.value) * 0.9;
  const double left = usable - static_cast<double>(timing.weight_bytes_per_rank().value);
  const auto fitting = static_cast<int>(
      std::floor(left / static_cast<double>(timing.kv_bytes_per_token_per_rank().value)));
  c.requests[0].context_tokens = fitting - 1;
  CHECK(decode_capacity_problems(c, false).empty());
  CHECK(decode_capacity_problems(c, true).size() == 1);
  c.requests[0].context_tokens = fitting;
  CHECK(decode_capacity_problems(c, false).size() == 1);
  c.decode_memory.usable_fraction = 0.1;
  const auto weights_only = decode_capacity_problems(c, false);
  REQUIRE(weights_only.size() == 1);
  CHECK(weights_only[0].find("the weights") != std::string::npos);
}
