#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sim/accuracy/methods/anchor_reconstruction.hpp"
#include "sim/accuracy/metrics/attention_math.hpp"
#include "sim/accuracy/metrics/precision_metrics.hpp"
#include "sim/accuracy/accuracy_rng.hpp"
#include "sim/quant/planes.hpp"
#include "sim/quant/quantize.hpp"

using namespace lynxsim::accuracy;

TEST_CASE("kl divergence is zero for equal logits and matches the closed form for two tokens") {
  const std::vector<float> a{1.0F, 3.0F, -2.0F};
  CHECK(kl_divergence_from_logits(a, a) == doctest::Approx(0.0).epsilon(1e-12));
  const std::vector<float> p{0.0F, 0.0F};
  const std::vector<float> q{0.0F, std::log(3.0F)};
  const double expected = 0.5 * std::log(0.5 / 0.25) + 0.5 * std::log(0.5 / 0.75);
  CHECK(kl_divergence_from_logits(p, q) == doctest::Approx(expected).epsilon(1e-6));
}

TEST_CASE("softmax sums to one and attention output is the probability-weighted value") {
  const std::vector<float> logits{0.0F, std::log(3.0F)};
  const auto p = softmax(logits);
  CHECK(p[0] == doctest::Approx(0.25));
  CHECK(p[1] == doctest::Approx(0.75));
  const std::vector<float> values{4.0F, 0.0F, 0.0F, 8.0F};
  const auto o = attention_output(values.data(), 2, p);
  CHECK(o[0] == doctest::Approx(1.0));
  CHECK(o[1] == doctest::Approx(6.0));
}

TEST_CASE("top-k recall counts the shared top-k positions") {
  const std::vector<float> ref{5.0F, 4.0F, 3.0F, 2.0F, 1.0F};
  const std::vector<float> approx{5.0F, 1.0F, 3.0F, 2.0F, 4.0F};
  CHECK(topk_recall(ref, approx, 2) == doctest::Approx(0.5));
  CHECK(topk_recall(ref, ref, 3) == doctest::Approx(1.0));
  CHECK(topk_recall(ref, approx, 10) == doctest::Approx(1.0));
}

TEST_CASE("attention logits are scaled dot products") {
  const std::vector<float> keys{1.0F, 0.0F, 0.0F, 2.0F};
  const std::vector<float> query{2.0F, 1.0F};
  std::vector<float> logits;
  attention_logits(keys.data(), 2, 2, query.data(), logits);
  CHECK(logits[0] == doctest::Approx(2.0 / std::sqrt(2.0)));
  CHECK(logits[1] == doctest::Approx(2.0 / std::sqrt(2.0)));
}

TEST_CASE("snr and relative error follow their definitions") {
  ErrorAccumulator acc;
  const std::vector<float> x{1.0F, -1.0F, 1.0F, -1.0F};
  const std::vector<float> y{1.1F, -0.9F, 0.9F, -1.1F};
  acc.add(x, y);
  CHECK(acc.snr_db() == doctest::Approx(20.0).epsilon(1e-4));
  CHECK(acc.relative_l2() == doctest::Approx(0.1).epsilon(1e-4));
  ErrorAccumulator exact;
  exact.add(x, x);
  CHECK(exact.snr_db() == doctest::Approx(200.0));
  CHECK(relative_error(std::vector<double>{3.0, 4.0}, std::vector<double>{3.0, 4.5}) == doctest::Approx(0.1));
}

TEST_CASE("fast top-bit reconstruction is bit-identical to the plane reference") {
  AccuracyRng rng(7);
  std::vector<float> x(64 * 128);
  for (float& v : x) v = static_cast<float>(rng.student_t(4.0));
  const lynxsim::quant::BlockView view(x, 64, 128);
  const auto block = lynxsim::quant::quantize_fast(view, lynxsim::quant::QuantConfig{8, lynxsim::quant::GroupAxis::per_token, 128, false});
  for (const auto& planes : {std::vector<int>{4, 4}, std::vector<int>{2, 2, 4}, std::vector<int>{3, 5}}) {
    const lynxsim::quant::PlaneSplit split{planes};
    const auto reference = lynxsim::quant::reconstruct_from_planes(block, split, 1);
    std::vector<float> fast(x.size());
    reconstruct_top_bits(block, planes[0], fast.data());
    CHECK(fast == reference);
  }
}

TEST_CASE("the private random stream is deterministic and unit-variance") {
  AccuracyRng a(42);
  AccuracyRng b(42);
  double sum_sq = 0.0;
  for (int i = 0; i < 20000; ++i) {
    const double x = a.student_t_unit(5.0);
    CHECK(x == b.student_t_unit(5.0));
    sum_sq += x * x;
  }
  CHECK(sum_sq / 20000 == doctest::Approx(1.0).epsilon(0.08));
}
