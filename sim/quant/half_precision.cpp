#include "sim/quant/half_precision.hpp"

#include <bit>

#include "sim/quant/codec_math.hpp"

namespace lynxsim::quant {

std::uint16_t float_to_fp16(float value) { return codec_math::to_fp16(value); }

float fp16_to_float(std::uint16_t bits) { return codec_math::from_fp16(bits); }

std::uint16_t float_to_bf16(float value) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  if ((f & 0x7fffffffU) > 0x7f800000U) {
    return static_cast<std::uint16_t>((f >> 16) | 0x40U);
  }
  const std::uint32_t rounded = f + 0x7fffU + ((f >> 16) & 1U);
  return static_cast<std::uint16_t>(rounded >> 16);
}

float bf16_to_float(std::uint16_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16); }

float round_to_fp16(float value) { return fp16_to_float(float_to_fp16(value)); }

float round_to_bf16(float value) { return bf16_to_float(float_to_bf16(value)); }

std::vector<std::uint16_t> to_bf16(std::span<const float> values) {
  std::vector<std::uint16_t> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    out[i] = float_to_bf16(values[i]);
  }
  return out;
}

std::vector<float> from_bf16(std::span<const std::uint16_t> bits) {
  std::vector<float> out(bits.size());
  for (std::size_t i = 0; i < bits.size(); ++i) {
    out[i] = bf16_to_float(bits[i]);
  }
  return out;
}

}  // namespace lynxsim::quant
