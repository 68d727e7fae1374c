#pragma once
// Scalar element codes of the scaled KV formats (scaled_codec.hpp): OCP 8-bit floating point
// (OFP8, "OCP 8-bit Floating Point Specification" v1.0, 2023) E4M3 and E5M2, and symmetric INT8.
// This is the reference every kernel (AVX2, CUDA) must reproduce bit for bit; it is inline,
// exception-free and compiles as host and device code (codec_math.hpp's conventions).
//
// Formats (OFP8 v1.0, tables 1 and 2):
//   E4M3  1 sign, 4 exponent bits (bias 7), 3 mantissa bits. No infinities; S.1111.111 is NaN, so
//         the largest finite magnitude is S.1111.110 = 448. Smallest normal 2^-6, smallest
//         subnormal 2^-9.
//   E5M2  1 sign, 5 exponent bits (bias 15), 2 mantissa bits, IEEE-like: S.11111.00 is infinity,
//         S.11111.{01,10,11} are NaN. Largest finite 57344, smallest normal 2^-14, smallest
//         subnormal 2^-16.
// Conversion from float32 (OFP8 v1.0, section 5 "conversion"): round to nearest, ties to even, on
// the format's grid, subnormals included; the sign is kept, so -0.0 encodes as 0x80 and a negative
// value too small for the smallest subnormal gives -0. Saturation mode (the spec's "saturating"
// conversion, what vLLM's CUDA kernels request with __NV_SATFINITE for both formats and what its
// E4M3 path does by clamping to +-448): a magnitude that rounds above the largest finite value,
// infinity included, becomes the largest finite value of its sign (E4M3 +-448, E5M2 +-57344);
// nothing encodes to infinity. NaN encodes as the format's NaN with the input's sign (0x7F / 0xFF
// for both formats). Decoding is exact; a NaN code decodes to the quiet float NaN 0x7FC00000 with
// its sign, the E5M2 infinity code to infinity.
// INT8 (vLLM's int8 per-token-head KV): q = round_half_even(clamp(v, -128, 127)), stored as two's
// complement; clamping before rounding equals rounding before clamping (both are monotone and the
// bounds are integers).

#include <cstdint>

#include "sim/quant/codec_math.hpp"

namespace lynxsim::quant {

enum class ElementCode : std::uint8_t { fp8_e4m3, fp8_e5m2, int8 };

namespace fp8_math {

struct Fp8Layout {
  int mantissa_bits;
  int bias;
  std::uint32_t max_code;  // the largest finite magnitude code (sign bit clear)
};

LYNXSIM_HOST_DEVICE inline Fp8Layout fp8_layout(ElementCode code) {
  return code == ElementCode::fp8_e5m2 ? Fp8Layout{2, 15, 0x7BU} : Fp8Layout{3, 7, 0x7EU};
}

// The largest finite value of the code: 448 (E4M3), 57344 (E5M2), 127 (INT8).
LYNXSIM_HOST_DEVICE inline float code_max(ElementCode code) {
  if (code == ElementCode::int8) return 127.0F;
  return code == ElementCode::fp8_e5m2 ? 57344.0F : 448.0F;
}

// Magnitude code of a finite or infinite |value| (sign bit clear), before saturation.
LYNXSIM_HOST_DEVICE inline std::uint32_t fp8_magnitude(std::uint32_t abs_bits, const Fp8Layout& f) {
  const int exponent = static_cast<int>(abs_bits >> 23) - 127;  // of a float32 normal
  const int min_exponent = 1 - f.bias;                           // of the format's smallest normal
  const int drop = 23 - f.mantissa_bits;                         // float32 mantissa bits dropped
  if (exponent >= min_exponent) {
    // Rounding the bit pattern rounds the mantissa; a carry moves into the exponent field.
    const std::uint32_t rounded = codec_math::round_shift_even(abs_bits, drop);
    return rounded - (static_cast<std::uint32_t>(127 - f.bias) << f.mantissa_bits);
  }
  if ((abs_bits >> 23) == 0U) return 0U;  // float32 zero or subnormal: far below 2^-16
  // Subnormal result: the significand 1.m on the grid 2^(min_exponent - mantissa_bits).
  const std::uint32_t significand = (abs_bits & 0x7FFFFFU) | 0x800000U;
  const int shift = drop + (min_exponent - exponent);
  return shift > 25 ? 0U : codec_math::round_shift_even(significand, shift);
}

LYNXSIM_HOST_DEVICE inline std::uint8_t float_to_fp8(float value, ElementCode code) {
  const Fp8Layout f = fp8_layout(code);
  const std::uint32_t bits = codec_math::float_bits(value);
  const auto sign = static_cast<std::uint8_t>((bits >> 24) & 0x80U);
  const std::uint32_t abs_bits = bits & 0x7FFFFFFFU;
  if (abs_bits > 0x7F800000U) return static_cast<std::uint8_t>(sign | 0x7FU);
  const std::uint32_t magnitude = fp8_magnitude(abs_bits, f);
  return static_cast<std::uint8_t>(sign | (magnitude > f.max_code ? f.max_code : magnitude));
}

LYNXSIM_HOST_DEVICE inline float fp8_to_float(std::uint8_t byte, ElementCode code) {
  const Fp8Layout f = fp8_layout(code);
  const std::uint32_t sign = static_cast<std::uint32_t>(byte & 0x80U) << 24;
  const std::uint32_t magnitude = byte & 0x7FU;
  const std::uint32_t exponent_field = magnitude >> f.mantissa_bits;
  const std::uint32_t mantissa = magnitude & ((1U << f.mantissa_bits) - 1U);
  const std::uint32_t top_exponent = (1U << (7 - f.mantissa_bits)) - 1U;
  const bool nan = code == ElementCode::fp8_e5m2 ? (exponent_field == top_exponent && mantissa != 0U)
                                                 : magnitude == 0x7FU;
  if (nan) return codec_math::bits_float(sign | 0x7FC00000U);
  if (code == ElementCode::fp8_e5m2 && exponent_field == top_exponent) {
    return codec_math::bits_float(sign | 0x7F800000U);
  }
  // value = 2^(e - bias)·(1 + m/2^M) for e > 0, 2^(1 - bias)·(m/2^M) for e = 0.
  const float unit = codec_math::bits_float(static_cast<std::uint32_t>(127 + 1 - f.bias - f.mantissa_bits) << 23);
  const float steps = exponent_field == 0U
                          ? static_cast<float>(mantissa)
                          : static_cast<float>(mantissa | (1U << f.mantissa_bits)) *
                                static_cast<float>(1U << (exponent_field - 1U));
  return codec_math::bits_float(sign | codec_math::float_bits(steps * unit));
}

LYNXSIM_HOST_DEVICE inline std::uint8_t float_to_int8(float value) {
  const float clamped = value < -128.0F ? -128.0F : (value > 127.0F ? 127.0F : value);
  // Round half to even by the 1.5·2^23 magic number (exact for |v| <= 2^22), no rounding-mode call.
  const float magic = 12582912.0F;
  const float rounded = (clamped + magic) - magic;
  return static_cast<std::uint8_t>(static_cast<std::int8_t>(static_cast<int>(rounded)));
}

LYNXSIM_HOST_DEVICE inline float int8_to_float(std::uint8_t byte) {
  return static_cast<float>(static_cast<std::int8_t>(byte));
}

// The code of value / scale, and the value of a code times its scale (separately rounded float32
// division and multiplication, no fused multiply-add).
LYNXSIM_HOST_DEVICE inline std::uint8_t encode_element(float value, float scale, ElementCode code) {
  const float v = value / scale;
  return code == ElementCode::int8 ? float_to_int8(v) : float_to_fp8(v, code);
}

LYNXSIM_HOST_DEVICE inline float decode_element(std::uint8_t byte, float scale, ElementCode code) {
  return (code == ElementCode::int8 ? int8_to_float(byte) : fp8_to_float(byte, code)) * scale;
}

// Scale of a group whose largest magnitude is `amax`: amax / code_max, at least kMinScale (vLLM pull
// request 38378 clamps per-token-head scales to >= 1e-6 so that an all-zero row divides safely).
inline constexpr float kMinScale = 1e-6F;
LYNXSIM_HOST_DEVICE inline float scale_of_amax(float amax, ElementCode code) {
  const float s = amax / code_max(code);
  return s > kMinScale ? s : kMinScale;
}

}  // namespace fp8_math
}  // namespace lynxsim::quant
