#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "accuracy_test_util.hpp"
#include "sim/accuracy/metrics/attention_math.hpp"
#include "sim/accuracy/kv/kv_profile.hpp"
#include "sim/accuracy/kv/rope.hpp"
#include "sim/accuracy/kv/synthetic_kv.hpp"

using namespace lynxsim::accuracy;
using lynxsim::accuracy::testing::small_geometry;

namespace {

std::vector<double> channel_rms(const HeadKv& b) {
  std::vector<double> sq(static_cast<std::size_t>(b.head_dim));
  for (int t = 1; t < b.tokens; ++t) {
    for (int c = 0; c < b.head_dim; ++c) sq[static_cast<std::size_t>(c)] += static_cast<double>(b.key(t)[c]) * b.key(t)[c];
  }
  for (double& x : sq) x = std::sqrt(x / (b.tokens - 1.0));
  return sq;
}

}  // namespace

TEST_CASE("synthetic heads are deterministic per seed and differ across seeds") {
  const auto g = small_geometry();
  const auto a = generate_synthetic_head(g, default_kv_profile(), 1, 1, 512, {300, 511}, 9);
  const auto b = generate_synthetic_head(g, default_kv_profile(), 1, 1, 512, {300, 511}, 9);
  const auto c = generate_synthetic_head(g, default_kv_profile(), 1, 1, 512, {300, 511}, 10);
  CHECK(a.keys == b.keys);
  CHECK(a.values == b.values);
  CHECK(a.queries == b.queries);
  CHECK(a.keys != c.keys);
}

TEST_CASE("synthetic keys have outlier channels and shallow layers have stronger ones") {
  const auto g = small_geometry();
  double shallow_ratio = 0.0;
  double deep_ratio = 0.0;
  for (int head = 0; head < 2; ++head) {
    for (const int layer : {0, 3}) {
      auto s = channel_rms(generate_synthetic_head(g, default_kv_profile(), layer, head, 2048, {2047}, 3));
      std::sort(s.begin(), s.end());
      const double ratio = s.back() / s[s.size() / 2];
      CHECK(ratio > 4.0);
      (layer == 0 ? shallow_ratio : deep_ratio) += ratio;
    }
  }
  CHECK(shallow_ratio > deep_ratio);
}

TEST_CASE("token 0 is an attention sink") {
  const auto g = small_geometry();
  const auto b = generate_synthetic_head(g, default_kv_profile(), 2, 0, 2048, {1500, 1800, 2047}, 5);
  double sink_mass = 0.0;
  for (int i = 0; i < b.num_queries(); ++i) {
    std::vector<float> logits;
    attention_logits(b.keys.data(), b.head_dim, b.query_positions[static_cast<std::size_t>(i)] + 1, b.query(i), logits);
    const auto p = softmax(logits);
    sink_mass += p[0];
    CHECK(p[0] * static_cast<double>(p.size()) > 20.0);
  }
  CHECK(sink_mass / b.num_queries() > 0.05);
}

TEST_CASE("rope preserves pair norms and is the identity at position 0") {
  std::vector<float> x{1.0F, 2.0F, 3.0F, 4.0F};
  const auto original = x;
  apply_rope(x.data(), 1, 4, 0, 10000.0);
  CHECK(x == original);
  apply_rope(x.data(), 1, 4, 1000, 10000.0);
  CHECK(x[0] * x[0] + x[2] * x[2] == doctest::Approx(1.0F + 9.0F));
  CHECK(x[1] * x[1] + x[3] * x[3] == doctest::Approx(4.0F + 16.0F));
  CHECK(x[0] == doctest::Approx(std::cos(1000.0) * 1.0 - std::sin(1000.0) * 3.0).epsilon(1e-4));
}

