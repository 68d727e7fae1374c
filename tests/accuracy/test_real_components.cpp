#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "accuracy_test_util.hpp"
#include "sim/accuracy/methods/llm_kv_methods.hpp"
#include "sim/accuracy/methods/method_codec.hpp"
#include "sim/accuracy/calibration/real_acceptance_calibration.hpp"
#include "sim/accuracy/real_model/real_kv_stats.hpp"
#include "sim/accuracy/real_model/real_model_cache.hpp"
#include "sim/accuracy/real_model/real_model_json.hpp"
#include "sim/quant/half_precision.hpp"

using namespace lynxsim::accuracy;

namespace {

lynxsim::llm::KvCache filled_cache(int layers, int heads, int tokens, int dim) {
  lynxsim::llm::KvCache cache(layers, heads, dim);
  cache.extend(tokens);
  for (int l = 0; l < layers; ++l) {
    for (int h = 0; h < heads; ++h) {
      auto k = cache.keys(l, h);
      auto v = cache.values(l, h);
      for (std::size_t i = 0; i < k.size(); ++i) {
        k[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i) + l + 3 * h)) * (h == 0 ? 40.0F : 1.0F);
        v[i] = static_cast<float>(std::cos(0.11 * static_cast<double>(i) + h));
      }
    }
  }
  return cache;
}

RealModelResult sample_result() {
  RealModelResult r;
  r.model = "m.gguf";
  r.text = "t.txt";
  r.text_tokens = 9000;
  r.seed = 7;
  RealContextResult c{1024, 256, 12.5, {}, {}};
  c.rows.push_back(RealVariantRow{"int8", "full", 8.5, 256, 250, 251, 12.6, 0.1});
  c.acceptance.push_back(RealAcceptance{"lynx-4+4", 16, {0, 32}, {16, 3}});
  r.contexts.push_back(c);
  r.passkey.push_back(RealPasskeyRow{"int8", "full", {PasskeyPoint{512, 0.5, 1, 1}}});
  return r;
}

}  // namespace

TEST_CASE("per-token acceptance is the truncated-geometric maximum-likelihood rate") {
  const RealAcceptance a{"lynx", 4, {0, 1, 2, 3}, {4, 2, 0, 4}};
  CHECK(a.per_token() == doctest::Approx(10.0 / 12.0));
  CHECK(a.histogram(4) == std::vector<int>{1, 0, 1, 0, 2});
  CHECK(a.histogram(1) == std::vector<int>{1, 3});
  CHECK(a.mean_accepted(2) == doctest::Approx(1.5));
  CHECK_THROWS_AS(a.histogram(5), std::invalid_argument);
}

TEST_CASE("calibration scales the proxy's miss rate by the ratio measured on SmolLM2") {
  const AcceptanceCalibration c{"lynx-4+4", 1024, 0.6, 0.9, 100};
  const double miss = (10.0 + 0.5) / 101.0;
  CHECK(c.real_miss_estimate() == doctest::Approx(miss));
  CHECK(c.miss_ratio() == doctest::Approx(miss / 0.4));
  CHECK(calibrate_acceptance(0.6, c) == doctest::Approx(1.0 - miss));
  CHECK(calibrate_acceptance(0.2, c) == doctest::Approx(1.0 - 0.8 * miss / 0.4));
  CHECK(calibrate_acceptance(1.0, c) == doctest::Approx(1.0));
  const AcceptanceCalibration worse{"x", 1, 0.9, 0.5, 10};
  CHECK(calibrate_acceptance(0.0, worse) == doctest::Approx(0.0));
  const AcceptanceCalibration never_missed{"y", 1, 0.8, 1.0, 199};
  CHECK(never_missed.real_miss_estimate() == doctest::Approx(0.5 / 200.0));
  CHECK(calibrate_acceptance(0.5, never_missed) == doctest::Approx(1.0 - 0.5 * (0.0025 / 0.2)));
  CHECK_THROWS_AS(calibrate_acceptance(1.5, c), std::invalid_argument);
}

TEST_CASE("the bf16 method rounds every cached K and V to bf16 and int8 stays within half a step") {
  auto cache = filled_cache(2, 3, 40, 16);
  const auto original = cache;
  apply_kv_method(cache, KvVariant{method_from_name("bf16"), false});
  CHECK(cache.keys(1, 2)[5] == lynxsim::quant::round_to_bf16(original.keys(1, 2)[5]));
  auto int8 = original;
  apply_kv_method(int8, KvVariant{method_from_name("int8"), false});
  const auto k = original.keys(0, 0);
  const auto q = int8.keys(0, 0);
  for (int t = 0; t < 40; ++t) {
    float lo = k[static_cast<std::size_t>(t * 16)];
    float hi = lo;
    for (int c = 0; c < 16; ++c) {
      lo = std::min(lo, k[static_cast<std::size_t>(t * 16 + c)]);
      hi = std::max(hi, k[static_cast<std::size_t>(t * 16 + c)]);
    }
    for (int c = 0; c < 16; ++c) {
      const auto i = static_cast<std::size_t>(t * 16 + c);
      CHECK(std::abs(q[i] - k[i]) <= (hi - lo) / 255.0F * 0.51F + 1e-2F);
    }
  }
}

TEST_CASE("a Lynx full KV equals int8 and its anchor differs; duplicates are found") {
  const auto original = filled_cache(1, 2, 24, 16);
  auto full = original;
  auto int8 = original;
  auto anchor = original;
  const auto lynx = method_from_name("lynx-4+4");
  apply_kv_method(full, KvVariant{lynx, false});
  apply_kv_method(int8, KvVariant{method_from_name("int8"), false});
  apply_kv_method(anchor, KvVariant{lynx, true});
  CHECK(std::equal(full.keys(0, 1).begin(), full.keys(0, 1).end(), int8.keys(0, 1).begin()));
  CHECK_FALSE(std::equal(anchor.keys(0, 1).begin(), anchor.keys(0, 1).end(), int8.keys(0, 1).begin()));
  const auto variants = kv_variants_of({method_from_name("int8"), lynx, method_from_name("lynx-2+2+4")});
  REQUIRE(variants.size() == 5);
  CHECK(variants[1].label() == "lynx-4+4 anchor");
  CHECK(dedupe_variants(variants) == std::vector<int>{0, 1, 0, 3, 0});
}

TEST_CASE("CacheGen shares one absmax across the KV heads of a token") {
  const auto original = filled_cache(2, 2, 32, 16);
  auto layer_wide = original;
  apply_kv_method(layer_wide, KvVariant{method_from_name("cachegen"), false});
  double err_small = 0.0;
  double err_per_head = 0.0;
  const auto block = original.keys(1, 1);
  const auto per_head = reconstruct_block(method_from_name("cachegen"), CodecTarget{TensorKind::key, false, 1, 2},
                                          lynxsim::quant::BlockView(block, 32, 16));
  for (std::size_t i = 0; i < block.size(); ++i) {
    err_small += std::abs(layer_wide.keys(1, 1)[i] - block[i]);
    err_per_head += std::abs(per_head[i] - block[i]);
  }
  CHECK(err_small > 5.0 * err_per_head);
}

TEST_CASE("real-model results survive a JSON round trip and the cache") {
  const RealModelResult r = sample_result();
  const RealModelResult back = real_result_from_json(real_result_to_json(r));
  CHECK(real_result_to_json(back) == real_result_to_json(r));
  CHECK(back.at_context(1024).row("int8").agreement() == doctest::Approx(250.0 / 256.0));
  CHECK(back.at_context(1024).acceptance_of("lynx-4+4").per_token() == doctest::Approx(19.0 / 20.0));
  const std::string dir = testing::scratch_dir("real_cache");
  CHECK_FALSE(load_cached_real_result(dir, "k1").has_value());
  store_cached_real_result(dir, "k1", r);
  REQUIRE(load_cached_real_result(dir, "k1").has_value());
  CHECK(real_result_to_json(*load_cached_real_result(dir, "k1")) == real_result_to_json(r));
  CHECK(real_acceptance_probability(r, "lynx-4+4", 4096) == doctest::Approx(19.0 / 20.0));
  CHECK_THROWS_AS(real_acceptance_probability(r, "kivi2", 1024), std::out_of_range);
}

TEST_CASE("block statistics find one outlier pair and a sink that takes the attention") {
  const int tokens = 64;
  const int dim = 16;
  std::vector<float> keys(static_cast<std::size_t>(tokens * dim));
  std::vector<float> values(keys.size());
  for (int t = 0; t < tokens; ++t) {
    for (int c = 0; c < dim; ++c) {
      const float scale = c >= 14 ? 20.0F : 1.0F;
      keys[static_cast<std::size_t>(t * dim + c)] = static_cast<float>(std::sin(1.3 * t + c)) * scale;
      values[static_cast<std::size_t>(t * dim + c)] = static_cast<float>(std::cos(0.7 * t * (c + 1)));
    }
  }
  for (int c = 0; c < dim; ++c) keys[static_cast<std::size_t>(c)] = c == 0 ? 30.0F : 0.0F;
  std::vector<float> query(static_cast<std::size_t>(dim), 0.0F);
  query[0] = 1.0F;
  const auto s = block_kv_statistics(KvBlockView{keys.data(), values.data(), tokens, dim, 1, {query.data()}});
  REQUIRE(s.size() == kv_statistic_names().size());
  CHECK(s[0] == 1.0);
  CHECK(s[1] > 15.0);
  CHECK(s[7] > 0.9);
  CHECK(s[8] > 1.3);
}

TEST_CASE("K/V statistics: a channel constant over the tokens is left out of kurtosis and autocorrelation") {
  const int tokens = 64;
  const int dim = 4;
  std::vector<float> keys(static_cast<std::size_t>(tokens * dim));
  std::vector<float> values(keys.size());
  for (int t = 0; t < tokens; ++t) {
    const float alternating = t % 2 == 0 ? 1.0F : -1.0F;
    for (int c = 0; c < dim; ++c) {
      keys[static_cast<std::size_t>(t * dim + c)] = c == 3 ? 0.25F : alternating;
      values[static_cast<std::size_t>(t * dim + c)] = c == 3 ? 0.0F : alternating;
    }
  }
  const auto s = block_kv_statistics(KvBlockView{keys.data(), values.data(), tokens, dim, 1, {}});
  REQUIRE(s.size() == kv_statistic_names().size());
  // A +-1 alternation has excess kurtosis 1 - 3 = -2 and lag-1 autocorrelation -(T - 1) / T.
  CHECK(s[3] == doctest::Approx(-2.0));
  CHECK(s[4] == doctest::Approx(-63.0 / 64.0));
  CHECK(s[5] == doctest::Approx(-63.0 / 64.0));
}
