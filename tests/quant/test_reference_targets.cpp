#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/half_precision.hpp"
#include "sim/quant/planes.hpp"
#include "sim/quant/quantize.hpp"
#include "sim/quant/quantspec.hpp"

// The published per-group error targets: Gaussian channels, 128 tokens x 128 channels, 4 outlier channels at 10x,
// per-channel min/max over the 128 tokens; error as RMSE over all elements of (x̂ − x) / range of the
// element's group. Each figure must hold within 10%.

using namespace lynxsim::quant;

namespace {

constexpr int kTokens = 128;
constexpr int kChannels = 128;

const std::vector<float>& data() {
  static const std::vector<float> x = quant_test::gaussian_channels(kTokens, kChannels, 4, 2026);
  return x;
}

std::vector<float> channel_ranges(const std::vector<float>& x) {
  std::vector<float> range(kChannels);
  for (int c = 0; c < kChannels; ++c) {
    float lo = x[static_cast<std::size_t>(c)];
    float hi = lo;
    for (int t = 0; t < kTokens; ++t) {
      lo = std::fmin(lo, x[static_cast<std::size_t>(t * kChannels + c)]);
      hi = std::fmax(hi, x[static_cast<std::size_t>(t * kChannels + c)]);
    }
    range[static_cast<std::size_t>(c)] = hi - lo;
  }
  return range;
}

double relative_rmse(const std::vector<float>& y) {
  const auto& x = data();
  const auto range = channel_ranges(x);
  double sum = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = (static_cast<double>(y[i]) - x[i]) / range[i % kChannels];
    sum += e * e;
  }
  return std::sqrt(sum / static_cast<double>(x.size()));
}

QuantizedBlock quantize_channels(int bits) {
  return quantize_reference(BlockView(data(), kTokens, kChannels),
                            QuantConfig{bits, GroupAxis::per_channel, kTokens, false});
}

}  // namespace

TEST_CASE("native INT4 and INT8 round to nearest at the theoretical error") {
  CHECK(relative_rmse(dequantize(quantize_channels(4))) == doctest::Approx(0.0191).epsilon(0.10));
  CHECK(relative_rmse(dequantize(quantize_channels(8))) == doctest::Approx(0.00112).epsilon(0.10));
}

TEST_CASE("the top 4 bits of INT8 need the bucket middle, the floor is biased") {
  const QuantizedBlock block = quantize_channels(8);
  const PlaneSplit split{{4, 4}};
  const double floor = relative_rmse(reconstruct_from_planes(block, split, 1, AnchorRounding::floor));
  const double midpoint = relative_rmse(reconstruct_from_planes(block, split, 1, AnchorRounding::midpoint));
  CHECK(floor == doctest::Approx(0.0349).epsilon(0.10));
  CHECK(midpoint == doctest::Approx(0.0183).epsilon(0.10));
  CHECK(relative_rmse(reconstruct_from_planes(block, split, 2)) == doctest::Approx(0.00112).epsilon(0.10));
}

TEST_CASE("QuantSpec anchor matches INT4 and anchor plus signed residual is near INT8") {
  const QuantSpecConfig config{4, 4, GroupAxis::per_channel, kTokens};
  const QuantSpecBlock block = quantize_quantspec(BlockView(data(), kTokens, kChannels), config);
  CHECK(relative_rmse(dequantize_quantspec(block, false)) == doctest::Approx(0.0191).epsilon(0.10));
  CHECK(relative_rmse(dequantize_quantspec(block, true)) == doctest::Approx(0.00131).epsilon(0.10));
}

TEST_CASE("bf16 round trip is far more precise than INT8") {
  std::vector<float> y(data().size());
  for (std::size_t i = 0; i < y.size(); ++i) {
    y[i] = round_to_bf16(data()[i]);
  }
  CHECK(relative_rmse(y) < 0.0005);
}
