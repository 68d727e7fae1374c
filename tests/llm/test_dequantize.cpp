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

TEST_CASE("Q4_K decodes (d sc) q - (dmin m) with 6-bit scales and mins of eight sub-blocks") {
  std::vector<std::uint8_t> block(144, 0);
  put_f16(block, 0, 0.5f);
  put_f16(block, 2, 0.25f);
  // Sub-block 0: sc = 3, m = 2; sub-block 1: sc = 5, m = 1; sub-block 5 takes its low 4 bits
  // from byte 9 and its high 2 bits from the top of bytes 1 (scale) and 5 (min).
  block[4 + 0] = 3;
  block[4 + 4] = 2;
  block[4 + 1] = static_cast<std::uint8_t>(5 | (1 << 6));  // sc1 = 5, high bits of sc5 = 1
  block[4 + 5] = static_cast<std::uint8_t>(1 | (2 << 6));  // m1 = 1, high bits of m5 = 2
  block[4 + 9] = static_cast<std::uint8_t>(0x7 | (0x3 << 4));  // sc5 low = 7, m5 low = 3
  for (std::size_t l = 0; l < 128; ++l) {
    block[16 + l] = static_cast<std::uint8_t>((l % 16) | ((15 - l % 16) << 4));
  }
  const std::vector<float> y = decode(GgmlType::Q4_K, block, 256);
  CHECK(y[0] == 0.5f * 3 * 0 - 0.25f * 2);
  CHECK(y[7] == 0.5f * 3 * 7 - 0.25f * 2);
  CHECK(y[32 + 1] == 0.5f * 5 * 14 - 0.25f * 1);
  const int sc5 = 7 | (1 << 4);
  const int m5 = 3 | (2 << 4);
  // Sub-block 5 is the high nibbles of bytes 64..95.
  CHECK(y[160 + 2] == 0.5f * static_cast<float>(sc5) * 13 - 0.25f * static_cast<float>(m5));
  CHECK(y[255] == 0.0f);  // sub-block 7: sc = m = 0
}

TEST_CASE("Q6_K decodes (d sc) (q - 32) from 4 low and 2 high bits with one scale per 16 values") {
  std::vector<std::uint8_t> block(210, 0);
  for (std::size_t k = 0; k < 16; ++k) {
    block[192 + k] = static_cast<std::uint8_t>(static_cast<std::int8_t>(static_cast<int>(k) - 8));
  }
  put_f16(block, 208, 0.125f);
  block[0] = 0x21;         // value 0: low nibble 1; value 64: low nibble 2
  block[128] = 0b11100100;  // value 0: high 0, value 32: 1, value 64: 2, value 96: 3
  block[32] = 0x05;        // value 32: low nibble 5
  const std::vector<float> y = decode(GgmlType::Q6_K, block, 256);
  CHECK(y[0] == 0.125f * -8.0f * static_cast<float>(1 - 32));
  CHECK(y[32] == 0.125f * -6.0f * static_cast<float>((5 | 1 << 4) - 32));
  CHECK(y[64] == 0.125f * -4.0f * static_cast<float>((2 | 2 << 4) - 32));
  CHECK(y[96] == 0.125f * -2.0f * static_cast<float>((0 | 3 << 4) - 32));
  CHECK(y[16] == 0.125f * -7.0f * -32.0f);
  CHECK(y[128] == 0.125f * 0.0f * -32.0f);  // second half: scale 8 = 0
  CHECK(y[128 + 16] == 0.125f * 1.0f * -32.0f);
}
