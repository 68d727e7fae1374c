#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "sim/llm/dequantize.hpp"

using namespace lynxsim::llm;

namespace {

void put_f16(std::vector<std::uint8_t>& block, std::size_t at, float value) {
  const std::uint16_t bits = float_to_f16(value);
  block[at] = static_cast<std::uint8_t>(bits & 0xFF);
  block[at + 1] = static_cast<std::uint8_t>(bits >> 8);
}

void put_u32(std::vector<std::uint8_t>& block, std::size_t at, std::uint32_t v) {
  for (std::size_t k = 0; k < 4; ++k) {
    block[at + k] = static_cast<std::uint8_t>(v >> (8 * k));
  }
}

std::vector<float> decode(GgmlType type, const std::vector<std::uint8_t>& bytes, std::size_t n) {
  std::vector<float> out(n);
  dequantize(type, bytes, out);
  return out;
}

}  // namespace

TEST_CASE("f16 and bf16 widen to the exact float values") {
  CHECK(f16_to_float(0x3C00) == 1.0f);
  CHECK(f16_to_float(0xC000) == -2.0f);
  CHECK(f16_to_float(0x0001) == std::ldexp(1.0f, -24));
  CHECK(f16_to_float(0x7BFF) == 65504.0f);
  CHECK(std::isinf(f16_to_float(0x7C00)));
  CHECK(std::isnan(f16_to_float(0x7E00)));
  CHECK(bf16_to_float(0x3F80) == 1.0f);
  CHECK(bf16_to_float(0xC0A0) == -5.0f);
}

TEST_CASE("every finite f16 value survives a round trip through float") {
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const auto b = static_cast<std::uint16_t>(bits);
    if ((b & 0x7C00) == 0x7C00) {
      continue;
    }
    REQUIRE(float_to_f16(f16_to_float(b)) == b);
  }
  CHECK(float_to_f16(1e6f) == 0x7C00);
  CHECK(float_to_f16(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);
}

TEST_CASE("bf16 rounding is to nearest with ties to even") {
  CHECK(float_to_bf16(1.0f) == 0x3F80);
  CHECK(float_to_bf16(1.0f + std::ldexp(1.0f, -8)) == 0x3F80);
  CHECK(float_to_bf16(1.0f + 3.0f * std::ldexp(1.0f, -8)) == 0x3F82);
  CHECK(float_to_bf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -12)) == 0x3F81);
  CHECK(std::isnan(bf16_to_float(float_to_bf16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST_CASE("Q4_0 blocks decode to (nibble - 8) times the scale") {
  std::vector<std::uint8_t> b(18);
  put_f16(b, 0, 0.5f);
  for (int j = 0; j < 16; ++j) {
    b[static_cast<std::size_t>(2 + j)] = static_cast<std::uint8_t>(j | ((15 - j) << 4));
  }
  const std::vector<float> x = decode(GgmlType::Q4_0, b, 32);
  for (int j = 0; j < 16; ++j) {
    CHECK(x[static_cast<std::size_t>(j)] == (j - 8) * 0.5f);
    CHECK(x[static_cast<std::size_t>(j + 16)] == (7 - j) * 0.5f);
  }
}

TEST_CASE("Q4_1 blocks decode to nibble times the scale plus the minimum") {
  std::vector<std::uint8_t> b(20);
  put_f16(b, 0, 0.25f);
  put_f16(b, 2, -1.0f);
  for (int j = 0; j < 16; ++j) {
    b[static_cast<std::size_t>(4 + j)] = static_cast<std::uint8_t>(j | ((15 - j) << 4));
  }
  const std::vector<float> x = decode(GgmlType::Q4_1, b, 32);
  CHECK(x[0] == -1.0f);
  CHECK(x[15] == 2.75f);
  CHECK(x[16] == 2.75f);
  CHECK(x[31] == -1.0f);
  CHECK(x[5] == 0.25f);
}

TEST_CASE("Q5_0 and Q5_1 blocks take their fifth bit from qh") {
  std::vector<std::uint8_t> b0(22);
  put_f16(b0, 0, 1.0f);
  put_u32(b0, 2, 0x55555555U);
  for (int j = 0; j < 16; ++j) {
    b0[static_cast<std::size_t>(6 + j)] = static_cast<std::uint8_t>(j);
  }
  const std::vector<float> x0 = decode(GgmlType::Q5_0, b0, 32);
  CHECK(x0[0] == 0.0f);
  CHECK(x0[2] == 2.0f);
  CHECK(x0[3] == -13.0f);
  CHECK(x0[16] == 0.0f);
  CHECK(x0[17] == -16.0f);

  std::vector<std::uint8_t> b1(24);
  put_f16(b1, 0, 2.0f);
  put_f16(b1, 2, 0.5f);
  put_u32(b1, 4, 0xFFFF0000U);
  for (int j = 0; j < 16; ++j) {
    b1[static_cast<std::size_t>(8 + j)] = static_cast<std::uint8_t>((j << 4) | (15 - j));
  }
  const std::vector<float> x1 = decode(GgmlType::Q5_1, b1, 32);
  CHECK(x1[0] == 30.5f);
  CHECK(x1[15] == 0.5f);
  CHECK(x1[16] == 32.5f);
  CHECK(x1[31] == 62.5f);
}

TEST_CASE("Q8_0 blocks decode to signed bytes times the scale") {
  std::vector<std::uint8_t> b(34);
  put_f16(b, 0, 0.125f);
  for (int j = 0; j < 32; ++j) {
    b[static_cast<std::size_t>(2 + j)] =
        static_cast<std::uint8_t>(static_cast<std::int8_t>(j * 8 - 128));
  }
  const std::vector<float> x = decode(GgmlType::Q8_0, b, 32);
  CHECK(x[0] == -16.0f);
  CHECK(x[16] == 0.0f);
  CHECK(x[31] == 15.0f);
}

TEST_CASE("F16, BF16 and F32 rows decode element by element") {
  const std::vector<std::uint8_t> f16{0x00, 0x3C, 0x00, 0xC0};
  CHECK(decode(GgmlType::F16, f16, 2) == std::vector<float>{1.0f, -2.0f});
  const std::vector<std::uint8_t> bf16{0x80, 0x3F, 0xA0, 0xC0};
  CHECK(decode(GgmlType::BF16, bf16, 2) == std::vector<float>{1.0f, -5.0f});
  const std::vector<std::uint8_t> f32{0x00, 0x00, 0x80, 0x3F};
  CHECK(decode(GgmlType::F32, f32, 1) == std::vector<float>{1.0f});
}

TEST_CASE("dequantize rejects partial blocks and wrong byte counts") {
  std::vector<float> out(31);
  const std::vector<std::uint8_t> bytes(20);
  CHECK_THROWS_AS(dequantize(GgmlType::Q4_1, bytes, out), std::invalid_argument);
  std::vector<float> out32(32);
  const std::vector<std::uint8_t> short_bytes(19);
  CHECK_THROWS_AS(dequantize(GgmlType::Q4_1, short_bytes, out32), std::invalid_argument);
}
