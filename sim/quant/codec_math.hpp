#pragma once
// The scalar arithmetic shared by the CPU kernels and the CUDA kernels, so that both produce the
// same bits: fp16 encoding/decoding (round to nearest even) and the group parameters of
// quant_config.hpp. Everything here is inline, exception-free and compiles as host and device code.
// Failures (metadata outside the fp16 range) are reported through a flag; callers throw.

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define LYNXSIM_HOST_DEVICE __host__ __device__
#else
#define LYNXSIM_HOST_DEVICE
#endif

namespace lynxsim::quant::codec_math {

LYNXSIM_HOST_DEVICE inline std::uint32_t float_bits(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

LYNXSIM_HOST_DEVICE inline float bits_float(std::uint32_t bits) {
  float value = 0.0F;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

LYNXSIM_HOST_DEVICE inline std::uint32_t round_shift_even(std::uint32_t value, int shift) {
  const std::uint32_t kept = value >> shift;
  const std::uint32_t rest = value & ((1U << shift) - 1U);
  const std::uint32_t half = 1U << (shift - 1);
  return (rest > half || (rest == half && (kept & 1U) != 0U)) ? kept + 1U : kept;
}

// float32 -> fp16 bits. Thresholds: 65520 rounds to infinity, 2^-14 is the smallest normal,
// 2^-25 (a tie) and below round to zero.
LYNXSIM_HOST_DEVICE inline std::uint16_t to_fp16(float value) {
  const std::uint32_t f = float_bits(value);
  const auto sign = static_cast<std::uint16_t>((f >> 16) & 0x8000U);
  const std::uint32_t abs = f & 0x7fffffffU;
  if (abs > 0x7f800000U) {
    return static_cast<std::uint16_t>(sign | 0x7e00U | ((abs >> 13) & 0x1ffU));
  }
  if (abs >= 0x477ff000U) {
    return static_cast<std::uint16_t>(sign | 0x7c00U);
  }
  if (abs < 0x38800000U) {
    if (abs <= 0x33000000U) {
      return sign;
    }
    const std::uint32_t mantissa = (abs & 0x7fffffU) | 0x800000U;
    const int shift = 126 - static_cast<int>(abs >> 23);
    return static_cast<std::uint16_t>(sign | round_shift_even(mantissa, shift));
  }
  return static_cast<std::uint16_t>(sign | round_shift_even(abs - ((127U - 15U) << 23), 13));
}

LYNXSIM_HOST_DEVICE inline float from_fp16(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000U) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fU;
  std::uint32_t mantissa = bits & 0x3ffU;
  if (exponent == 0x1fU) {
    return bits_float(sign | 0x7f800000U | (mantissa << 13));
  }
  if (exponent != 0) {
    return bits_float(sign | ((exponent + 127U - 15U) << 23) | (mantissa << 13));
  }
  if (mantissa == 0) {
    return bits_float(sign);
  }
  std::uint32_t float_exponent = 127U - 15U + 1U;
  while ((mantissa & 0x400U) == 0) {
    mantissa <<= 1;
    --float_exponent;
  }
  return bits_float(sign | (float_exponent << 23) | ((mantissa & 0x3ffU) << 13));
}

LYNXSIM_HOST_DEVICE inline bool fp16_finite(std::uint16_t bits) { return (bits & 0x7c00U) != 0x7c00U; }

struct ParamBits {
  std::uint16_t scale_bits = 0;
  std::uint16_t min_bits = 0;
  bool scale_ok = true;
  bool min_ok = true;
};

// Group scale and minimum (fp16 bits) from the group's extremes lo <= hi (quant_config.hpp).
LYNXSIM_HOST_DEVICE inline ParamBits group_param_bits(float lo, float hi, int bits, bool symmetric) {
  lo += 0.0F;
  hi += 0.0F;
  ParamBits p;
  if (symmetric) {
    const float abs_lo = lo < 0.0F ? -lo : lo;
    const float abs_hi = hi < 0.0F ? -hi : hi;
    const float absmax = abs_lo > abs_hi ? abs_lo : abs_hi;
    p.scale_bits = to_fp16(absmax / static_cast<float>((1 << (bits - 1)) - 1));
    p.scale_ok = fp16_finite(p.scale_bits);
    p.min_bits = to_fp16(-static_cast<float>(1 << (bits - 1)) * from_fp16(p.scale_bits) + 0.0F);
  } else {
    p.min_bits = to_fp16(lo);
    const float range = hi - from_fp16(p.min_bits);
    p.scale_bits = to_fp16(range > 0.0F ? range / static_cast<float>((1 << bits) - 1) : 0.0F);
    p.scale_ok = fp16_finite(p.scale_bits);
  }
  p.min_ok = fp16_finite(p.min_bits);
  return p;
}

}  // namespace lynxsim::quant::codec_math
