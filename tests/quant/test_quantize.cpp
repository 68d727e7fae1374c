#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/half_precision.hpp"
#include "sim/quant/quantize.hpp"

using namespace lynxsim::quant;

namespace {

void check_fast_matches_reference(const std::vector<float>& x, int tokens, int channels, const QuantConfig& config) {
  const BlockView view(x, tokens, channels);
  const QuantizedBlock ref = quantize_reference(view, config);
  const QuantizedBlock fast = quantize_fast(view, config);
  REQUIRE(fast.codes == ref.codes);
  REQUIRE(fast.scales == ref.scales);
  REQUIRE(fast.mins == ref.mins);
  std::vector<float> ref_values(x.size());
  std::vector<float> fast_values(x.size());
  dequantize_reference(ref, MutableBlockView(ref_values, tokens, channels));
  dequantize_fast(fast, MutableBlockView(fast_values, tokens, channels));
  for (std::size_t i = 0; i < x.size(); ++i) {
    REQUIRE(std::bit_cast<std::uint32_t>(fast_values[i]) == std::bit_cast<std::uint32_t>(ref_values[i]));
  }
}

}  // namespace

TEST_CASE("fast quantizer equals the oracle bit-exactly for every width, axis and group size") {
  const int tokens = 37;
  const int channels = 72;
  const auto gaussian = quant_test::gaussian_channels(tokens, channels, 3, 11);
  const auto wild = quant_test::wild_values(tokens, channels, 12);
  for (int bits = 2; bits <= 8; ++bits) {
    for (GroupAxis axis : {GroupAxis::per_token, GroupAxis::per_channel}) {
      for (int group : {1, 5, 32, 64, 200}) {
        for (bool symmetric : {false, true}) {
          CAPTURE(bits);
          CAPTURE(group);
          CAPTURE(symmetric);
          const QuantConfig config{bits, axis, group, symmetric};
          check_fast_matches_reference(gaussian, tokens, channels, config);
          check_fast_matches_reference(wild, tokens, channels, config);
        }
      }
    }
  }
}

TEST_CASE("asymmetric quantization error stays within half a step of the fp16 grid") {
  const int tokens = 16;
  const int channels = 128;
  const auto x = quant_test::gaussian_channels(tokens, channels, 4, 3);
  const QuantConfig config{4, GroupAxis::per_token, 128, false};
  const QuantizedBlock block = quantize_reference(BlockView(x, tokens, channels), config);
  const auto y = dequantize(block);
  for (int t = 0; t < tokens; ++t) {
    const float s = fp16_to_float(block.scales[static_cast<std::size_t>(t)]);
    for (int c = 0; c < channels; ++c) {
      const std::size_t i = static_cast<std::size_t>(t * channels + c);
      REQUIRE(std::fabs(y[i] - x[i]) <= 0.5F * s * 1.01F + 1e-3F);
    }
  }
}

TEST_CASE("constant groups quantize to code 0 with scale 0 and reconstruct exactly") {
  const std::vector<float> x(24, -3.25F);
  for (GroupAxis axis : {GroupAxis::per_token, GroupAxis::per_channel}) {
    const QuantConfig config{8, axis, 4, false};
    const QuantizedBlock block = quantize_fast(BlockView(x, 4, 6), config);
    for (auto code : block.codes) {
      CHECK(code == 0);
    }
    for (auto s : block.scales) {
      CHECK(s == 0);
    }
    for (float v : dequantize(block)) {
      CHECK(v == -3.25F);
    }
  }
}

TEST_CASE("groups of one element reconstruct fp16 values exactly and others within fp16 rounding") {
  const std::vector<float> x{1.0F, -2.5F, 0.1F, 1000.0F, -0.0F, 7.0F};
  const QuantConfig config{4, GroupAxis::per_token, 1, false};
  const QuantizedBlock block = quantize_reference(BlockView(x, 2, 3), config);
  CHECK(block.scales.size() == 6);
  const auto y = dequantize(block);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (round_to_fp16(x[i]) == x[i]) {
      CHECK(y[i] == x[i]);
      CHECK(block.codes[i] == 0);
    } else {
      CHECK(std::fabs(y[i] - x[i]) <= std::fabs(x[i]) * 0x1.0p-11F);
    }
  }
}

TEST_CASE("subnormal inputs quantize without error") {
  const float tiny = std::numeric_limits<float>::denorm_min();
  const std::vector<float> x{tiny, 2 * tiny, -tiny, 0.0F, 1e-40F, -1e-39F, 3e-41F, 5 * tiny};
  for (bool symmetric : {false, true}) {
    const QuantConfig config{8, GroupAxis::per_token, 8, symmetric};
    const QuantizedBlock ref = quantize_reference(BlockView(x, 1, 8), config);
    const QuantizedBlock fast = quantize_fast(BlockView(x, 1, 8), config);
    CHECK(ref.codes == fast.codes);
    for (float v : dequantize(ref)) {
      CHECK(std::isfinite(v));
      CHECK(std::fabs(v) < 1e-7F);
    }
  }
}

TEST_CASE("NaN and infinity in the input are rejected with the position") {
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
    std::vector<float> x(64, 0.5F);
    x[37] = bad;
    const QuantConfig config{8, GroupAxis::per_token, 16, false};
    CHECK_THROWS_WITH_AS(quantize_reference(BlockView(x, 4, 16), config), doctest::Contains("token 2, channel 5"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(quantize_fast(BlockView(x, 4, 16), config), doctest::Contains("token 2, channel 5"),
                         std::invalid_argument);
  }
}

TEST_CASE("values beyond the fp16 metadata range and invalid configs are rejected") {
  const std::vector<float> x{0.0F, 1e8F};
  const std::vector<float> low_min{-1e6F, 0.0F};
  CHECK_THROWS_WITH_AS(quantize_reference(BlockView(x, 1, 2), QuantConfig{8, GroupAxis::per_token, 2, false}),
                       doctest::Contains("scale"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(quantize_fast(BlockView(low_min, 1, 2), QuantConfig{8, GroupAxis::per_token, 2, false}),
                       doctest::Contains("minimum"), std::invalid_argument);
  CHECK_THROWS_AS(quantize_fast(BlockView(x, 1, 2), QuantConfig{1, GroupAxis::per_token, 2, false}),
                  std::invalid_argument);
  CHECK_THROWS_AS(quantize_fast(BlockView(x, 1, 2), QuantConfig{9, GroupAxis::per_token, 2, false}),
                  std::invalid_argument);
  CHECK_THROWS_AS(quantize_fast(BlockView(x, 1, 2), QuantConfig{8, GroupAxis::per_token, 0, false}),
                  std::invalid_argument);
  CHECK_THROWS_AS(BlockView(x, 3, 2), std::invalid_argument);
}

TEST_CASE("symmetric quantization maps zero to the middle code and keeps the sign") {
  const std::vector<float> x{-1.0F, 0.0F, 0.5F, 1.0F};
  const QuantizedBlock block = quantize_reference(BlockView(x, 1, 4), QuantConfig{8, GroupAxis::per_token, 4, true});
  CHECK(block.codes[1] == 128);
  CHECK(block.codes[0] == 1);
  CHECK(block.codes[3] == 255);
  const auto y = dequantize(block);
  CHECK(y[1] == 0.0F);
  CHECK(y[0] == doctest::Approx(-1.0).epsilon(1e-3));
  CHECK(y[3] == doctest::Approx(1.0).epsilon(1e-3));
}

TEST_CASE("per-channel groups cover partial token groups at the end of the block") {
  const int tokens = 10;
  const int channels = 3;
  const auto x = quant_test::gaussian_channels(tokens, channels, 1, 5);
  const QuantizedBlock block = quantize_reference(BlockView(x, tokens, channels),
                                                  QuantConfig{8, GroupAxis::per_channel, 4, false});
  CHECK(block.scales.size() == 9);  // ceil(10 / 4) token groups x 3 channels
  CHECK(block.layout().group_of(9, 2) == 8);
  CHECK(block.layout().group_of(4, 1) == 4);
}
