#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "sim/quant/half_precision.hpp"

using namespace lynxsim::quant;

TEST_CASE("bf16 rounds to nearest with ties to even") {
  CHECK(float_to_bf16(1.0F) == 0x3f80);
  CHECK(float_to_bf16(std::bit_cast<float>(0x3f808000U)) == 0x3f80);  // tie, even stays
  CHECK(float_to_bf16(std::bit_cast<float>(0x3f818000U)) == 0x3f82);  // tie, odd rounds up
  CHECK(float_to_bf16(std::bit_cast<float>(0x3f808001U)) == 0x3f81);  // above the tie
  CHECK(float_to_bf16(std::bit_cast<float>(0x3f807fffU)) == 0x3f80);  // below the tie
  CHECK(float_to_bf16(-2.0F) == 0xc000);
  CHECK(float_to_bf16(0.0F) == 0x0000);
  CHECK(float_to_bf16(-0.0F) == 0x8000);
}

TEST_CASE("bf16 keeps NaN and infinities and overflows to infinity") {
  const std::uint16_t nan_bits = float_to_bf16(std::numeric_limits<float>::quiet_NaN());
  CHECK(std::isnan(bf16_to_float(nan_bits)));
  CHECK(std::isnan(bf16_to_float(float_to_bf16(std::bit_cast<float>(0x7f800001U)))));  // payload in low bits
  CHECK(float_to_bf16(std::numeric_limits<float>::infinity()) == 0x7f80);
  CHECK(float_to_bf16(-std::numeric_limits<float>::infinity()) == 0xff80);
  CHECK(float_to_bf16(std::numeric_limits<float>::max()) == 0x7f80);  // rounds past the largest bf16
  CHECK(float_to_bf16(std::bit_cast<float>(0x7f7f7fffU)) == 0x7f7f);  // largest finite bf16 stays
  CHECK(bf16_to_float(0x3f81) == 1.0078125F);
}

TEST_CASE("fp16 conversion rounds to nearest even across normal, subnormal and overflow ranges") {
  CHECK(float_to_fp16(1.0F) == 0x3c00);
  CHECK(float_to_fp16(65504.0F) == 0x7bff);
  CHECK(float_to_fp16(65519.0F) == 0x7bff);
  CHECK(float_to_fp16(65520.0F) == 0x7c00);
  CHECK(float_to_fp16(1.0F + 1.0F / 2048.0F) == 0x3c00);            // tie to even
  CHECK(float_to_fp16(1.0F + 3.0F / 2048.0F) == 0x3c02);            // tie to even (up)
  CHECK(float_to_fp16(std::ldexp(1.0F, -24)) == 0x0001);            // smallest subnormal
  CHECK(float_to_fp16(std::ldexp(1.0F, -25)) == 0x0000);            // tie to zero
  CHECK(float_to_fp16(std::ldexp(1.5F, -25)) == 0x0001);
  CHECK(float_to_fp16(std::ldexp(3.0F, -25)) == 0x0002);            // 1.5 ulp tie -> even 2
  CHECK(float_to_fp16(std::ldexp(1.0F, -14)) == 0x0400);            // smallest normal
  CHECK(float_to_fp16(std::ldexp(1023.5F, -24)) == 0x0400);         // subnormal rounding into normal
  CHECK(float_to_fp16(-0.0F) == 0x8000);
  CHECK(std::isnan(fp16_to_float(float_to_fp16(std::numeric_limits<float>::quiet_NaN()))));
  CHECK(fp16_to_float(0x0001) == std::ldexp(1.0F, -24));
  CHECK(fp16_to_float(0x7bff) == 65504.0F);
  CHECK(std::isinf(fp16_to_float(0xfc00)));
}

TEST_CASE("every finite fp16 value survives a round trip through float") {
  for (std::uint32_t bits = 0; bits < 0x10000U; ++bits) {
    const auto h = static_cast<std::uint16_t>(bits);
    if ((h & 0x7c00U) == 0x7c00U) {
      continue;
    }
    REQUIRE(float_to_fp16(fp16_to_float(h)) == h);
  }
}
