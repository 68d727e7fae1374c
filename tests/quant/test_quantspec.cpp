#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/half_precision.hpp"
#include "sim/quant/kernel_isa.hpp"
#include "sim/quant/quantize.hpp"
#include "sim/quant/quantspec.hpp"

using namespace lynxsim::quant;

TEST_CASE("QuantSpec anchor is native 4-bit round to nearest and the residual is a signed correction") {
  const auto x = quant_test::gaussian_channels(64, 128, 4, 17);
  const BlockView view(x, 64, 128);
  const QuantSpecConfig config{4, 4, GroupAxis::per_token, 128};
  const QuantSpecBlock block = quantize_quantspec(view, config);
  const QuantizedBlock int4 = quantize_reference(view, config.upper_config());
  CHECK(block.upper == int4.codes);
  CHECK(block.scales == int4.scales);
  const auto anchor = dequantize_quantspec(block, false);
  const auto full = dequantize_quantspec(block, true);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float s_lower = fp16_to_float(block.scales[i / 128]) / 16.0F;
    REQUIRE(block.lower[i] < 16);
    REQUIRE(std::fabs(full[i] - x[i]) <= s_lower * 1.0001F + 1e-6F);
    REQUIRE(full[i] - anchor[i] == doctest::Approx((static_cast<int>(block.lower[i]) - 8) * s_lower));
  }
}

TEST_CASE("QuantSpec codes and values equal the per-element definition on every kernel ISA") {
  const int tokens = 29;
  const int channels = 72;
  const auto x = quant_test::wild_values(tokens, channels, 5);
  const BlockView view(x, tokens, channels);
  std::vector<KernelIsa> isas{KernelIsa::portable};
  if (kernel_isa_supported(KernelIsa::avx2)) {
    isas.push_back(KernelIsa::avx2);
  }
  for (KernelIsa isa : isas) {
    for (const QuantSpecConfig& config : {QuantSpecConfig{4, 4, GroupAxis::per_token, 32},
                                          QuantSpecConfig{2, 6, GroupAxis::per_token, 7},
                                          QuantSpecConfig{3, 3, GroupAxis::per_channel, 8},
                                          QuantSpecConfig{5, 1, GroupAxis::per_channel, 128}}) {
      const QuantSpecBlock block = quantize_quantspec(view, config, isa);
      const QuantizedBlock anchor = quantize_reference(view, config.upper_config());
      REQUIRE(block.upper == anchor.codes);
      REQUIRE(block.scales == anchor.scales);
      REQUIRE(block.mins == anchor.mins);
      const auto full = dequantize_quantspec(block, true);
      const auto upper_only = dequantize_quantspec(block, false);
      const GroupLayout layout = anchor.layout();
      const int half = 1 << (config.lower_bits - 1);
      for (int t = 0; t < tokens; ++t) {
        for (int c = 0; c < channels; ++c) {
          const std::size_t i = static_cast<std::size_t>(t * channels + c);
          const std::size_t g = layout.group_of(t, c);
          const float s = fp16_to_float(block.scales[g]);
          const float m = fp16_to_float(block.mins[g]);
          const float s_lower = std::ldexp(s, -config.lower_bits);
          const float a = static_cast<float>(block.upper[i]) * s + m;
          const float r = std::nearbyint((x[i] - a) * (s_lower > 0.0F ? 1.0F / s_lower : 0.0F));
          const float clamped = std::fmin(std::fmax(r, static_cast<float>(-half)), static_cast<float>(half - 1));
          REQUIRE(static_cast<int>(block.lower[i]) == static_cast<int>(clamped) + half);
          REQUIRE(upper_only[i] == a);
          REQUIRE(full[i] == a + static_cast<float>(static_cast<int>(block.lower[i]) - half) * s_lower);
        }
      }
    }
  }
}

TEST_CASE("QuantSpec packs into the bytes of a plain 4+4 split") {
  const auto x = quant_test::gaussian_channels(32, 64, 2, 3);
  const QuantSpecConfig config{4, 4, GroupAxis::per_channel, 32};
  const QuantSpecBlock block = quantize_quantspec(BlockView(x, 32, 64), config);
  const PlaneEncoded encoded = pack_quantspec(block);
  const QuantConfig eight{8, GroupAxis::per_channel, 32, false};
  const auto expected = encoded_bytes(eight, PlaneSplit{{4, 4}}, 32, 64);
  REQUIRE(encoded.planes.size() == 2);
  CHECK(encoded.planes[0].size() == expected[0]);
  CHECK(encoded.planes[1].size() == expected[1]);
  const QuantizedBlock merged = unpack_block(encoded);
  for (std::size_t i = 0; i < x.size(); ++i) {
    REQUIRE((merged.codes[i] >> 4) == block.upper[i]);
    REQUIRE((merged.codes[i] & 15) == block.lower[i]);
  }
}

TEST_CASE("QuantSpec configs are validated") {
  CHECK_THROWS_AS(QuantSpecConfig({1, 4, GroupAxis::per_token, 8}).validate(), std::invalid_argument);
  CHECK_THROWS_AS(QuantSpecConfig({4, 5, GroupAxis::per_token, 8}).validate(), std::invalid_argument);
  CHECK_NOTHROW(QuantSpecConfig({3, 5, GroupAxis::per_token, 8}).validate());
}
