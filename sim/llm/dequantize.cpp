#include "sim/llm/dequantize.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "sim/llm/dequantize_k.hpp"

namespace lynxsim::llm {
namespace {

std::uint16_t read_u16(const std::uint8_t* p) {
  return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}

std::uint32_t read_u32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

void block_q4_0(const std::uint8_t* b, float* y) {
  const float d = f16_to_float(read_u16(b));
  for (int j = 0; j < 16; ++j) {
    y[j] = static_cast<float>((b[2 + j] & 0x0F) - 8) * d;
    y[j + 16] = static_cast<float>((b[2 + j] >> 4) - 8) * d;
  }
}

void block_q4_1(const std::uint8_t* b, float* y) {
  const float d = f16_to_float(read_u16(b));
  const float m = f16_to_float(read_u16(b + 2));
  for (int j = 0; j < 16; ++j) {
    y[j] = static_cast<float>(b[4 + j] & 0x0F) * d + m;
    y[j + 16] = static_cast<float>(b[4 + j] >> 4) * d + m;
  }
}

void block_q5(const std::uint8_t* b, float* y, bool has_min) {
  const float d = f16_to_float(read_u16(b));
  const float m = has_min ? f16_to_float(read_u16(b + 2)) : 0.0f;
  const std::uint8_t* p = b + (has_min ? 4 : 2);
  const std::uint32_t qh = read_u32(p);
  const std::uint8_t* qs = p + 4;
  const int offset = has_min ? 0 : 16;
  for (int j = 0; j < 16; ++j) {
    const int lo = static_cast<int>((qs[j] & 0x0F) | (((qh >> j) & 1U) << 4));
    const int hi = static_cast<int>((qs[j] >> 4) | (((qh >> (j + 16)) & 1U) << 4));
    y[j] = static_cast<float>(lo - offset) * d + m;
    y[j + 16] = static_cast<float>(hi - offset) * d + m;
  }
}

void block_q8_0(const std::uint8_t* b, float* y) {
  const float d = f16_to_float(read_u16(b));
  for (int j = 0; j < 32; ++j) {
    y[j] = static_cast<float>(static_cast<std::int8_t>(b[2 + j])) * d;
  }
}

void decode_block(GgmlType type, const std::uint8_t* b, float* y) {
  switch (type) {
    case GgmlType::F32: std::memcpy(y, b, 4); return;
    case GgmlType::F16: *y = f16_to_float(read_u16(b)); return;
    case GgmlType::BF16: *y = bf16_to_float(read_u16(b)); return;
    case GgmlType::Q4_0: block_q4_0(b, y); return;
    case GgmlType::Q4_1: block_q4_1(b, y); return;
    case GgmlType::Q5_0: block_q5(b, y, false); return;
    case GgmlType::Q5_1: block_q5(b, y, true); return;
    case GgmlType::Q8_0: block_q8_0(b, y); return;
    case GgmlType::Q4_K: block_q4_k(b, y); return;
    case GgmlType::Q6_K: block_q6_k(b, y); return;
  }
}

}  // namespace

float f16_to_float(std::uint16_t bits) {
  const std::uint32_t sign = (bits & 0x8000U) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1FU;
  const std::uint32_t mantissa = bits & 0x3FFU;
  if (exponent == 0) {
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  std::uint32_t out = 0;
  if (exponent == 0x1F) {
    out = sign | 0x7F800000U | (mantissa << 13);
  } else {
    out = sign | ((exponent + 112U) << 23) | (mantissa << 13);
  }
  return std::bit_cast<float>(out);
}

float bf16_to_float(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

std::uint16_t float_to_bf16(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  if (std::isnan(value)) {
    return static_cast<std::uint16_t>((bits >> 16) | 0x40U);
  }
  const std::uint32_t rounding = 0x7FFFU + ((bits >> 16) & 1U);
  return static_cast<std::uint16_t>((bits + rounding) >> 16);
}

std::uint16_t float_to_f16(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000U);
  const float magnitude = std::fabs(value);
  if (std::isnan(value)) {
    return static_cast<std::uint16_t>(sign | 0x7E00U);
  }
  if (magnitude >= 65520.0f) {
    return static_cast<std::uint16_t>(sign | 0x7C00U);
  }
  if (magnitude < 6.103515625e-05f) {
    const auto sub = static_cast<std::uint16_t>(std::nearbyint(std::ldexp(magnitude, 24)));
    return static_cast<std::uint16_t>(sign | sub);
  }
  const std::uint32_t abs_bits = bits & 0x7FFFFFFFU;
  const std::uint32_t rounded = abs_bits + 0x0FFFU + ((abs_bits >> 13) & 1U);
  return static_cast<std::uint16_t>(sign | (((rounded >> 13) - (112U << 10)) & 0x7FFFU));
}

void dequantize(GgmlType type, std::span<const std::uint8_t> bytes, std::span<float> out) {
  const GgmlTypeTraits traits = ggml_type_traits(type);
  const std::size_t expected = ggml_row_bytes(type, out.size());
  if (bytes.size() != expected) {
    throw std::invalid_argument(
        std::string("dequantize ") + traits.name + ": " + std::to_string(out.size()) +
        " values need " + std::to_string(expected) + " bytes, got " + std::to_string(bytes.size()));
  }
  const std::size_t blocks = out.size() / traits.block_size;
  for (std::size_t i = 0; i < blocks; ++i) {
    decode_block(type, bytes.data() + i * traits.block_bytes, out.data() + i * traits.block_size);
  }
}

}  // namespace lynxsim::llm
