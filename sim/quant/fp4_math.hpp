#pragma once
// The scalar arithmetic of the FP4 KV formats (fp4_codec.hpp), shared by the reference codec, the
// AVX2 kernels' block scales and the CUDA kernels, so that all three produce the same bits.
// Everything is inline, exception-free and compiles as host and device code (codec_math.hpp).
//
// E2M1 (OCP MX v1.0, section 5.3.3): sign, 2 exponent bits (bias 1), 1 mantissa bit; magnitudes
// 0, 0.5, 1, 1.5, 2, 3, 4, 6 for codes 0..7, code | 8 is the negative. No Inf, no NaN. Conversion
// rounds to nearest, ties to the even code (mantissa bit 0), saturates at ±6 and keeps the sign of
// zero: −0.0 and negatives that round to zero give code 8 (−0), as the hardware conversion
// cvt.rn.satfinite.e2m1x2.f32 does (PTX ISA, "cvt").
//
// E4M3 (OCP OFP8 v1.0, the "fn" variant NVFP4 uses for its block scales): bias 7, largest finite
// 448 (0x7E), 0x7F NaN, no Inf; subnormals m·2^−9 for exponent field 0. Conversion from a
// non-negative float32 rounds to nearest even and saturates at 448 (__NV_SATFINITE of
// __nv_cvt_float_to_fp8); values below 2^−10 (half the smallest subnormal, a tie) become 0.
//
// E8M0 (OCP MX v1.0, section 5.4.1): an unsigned biased exponent, value 2^(code−127) for codes
// 0..254 (code 0 is 2^−127, a float32 subnormal), 0xFF NaN.

#include <cstdint>

#include "sim/quant/codec_math.hpp"

namespace lynxsim::quant::fp4_math {

namespace cm = lynxsim::quant::codec_math;

inline constexpr float kE2m1Max = 6.0F;
inline constexpr float kE4m3Max = 448.0F;
inline constexpr std::uint8_t kE4m3MaxCode = 0x7E;
inline constexpr std::uint8_t kE8m0Nan = 0xFF;
// Rounding thresholds between neighbouring E2M1 magnitudes; at a threshold of odd index the upper
// code is the even one (ties to even), so that comparison is >=, the others >.
inline constexpr float kE2m1Thresholds[7] = {0.25F, 0.75F, 1.25F, 1.75F, 2.5F, 3.5F, 5.0F};

LYNXSIM_HOST_DEVICE inline std::uint8_t e2m1_code(float v) {
  const std::uint32_t bits = cm::float_bits(v);
  const float a = cm::bits_float(bits & 0x7fffffffU);
  const int magnitude = static_cast<int>(a > 0.25F) + static_cast<int>(a >= 0.75F) +
                        static_cast<int>(a > 1.25F) + static_cast<int>(a >= 1.75F) +
                        static_cast<int>(a > 2.5F) + static_cast<int>(a >= 3.5F) + static_cast<int>(a > 5.0F);
  return static_cast<std::uint8_t>(((bits >> 28) & 8U) | static_cast<std::uint32_t>(magnitude));
}

LYNXSIM_HOST_DEVICE inline float e2m1_value(std::uint8_t code) {
  const std::uint32_t magnitude = code & 7U;
  const std::uint32_t exponent = magnitude >> 1;
  const std::uint32_t mantissa = magnitude & 1U;
  const std::uint32_t abs_bits = exponent == 0 ? (mantissa != 0 ? 0x3f000000U : 0U)
                                               : ((exponent + 126U) << 23) | (mantissa << 22);
  return cm::bits_float(abs_bits | (static_cast<std::uint32_t>(code & 8U) << 28));
}

// value >= 0 (not NaN) -> E4M3 code in [0, 0x7E].
LYNXSIM_HOST_DEVICE inline std::uint8_t e4m3_code(float value) {
  const std::uint32_t u = cm::float_bits(value);
  if (u >= 0x43e00000U) {  // 448
    return kE4m3MaxCode;
  }
  if (u >= (121U << 23)) {  // 2^-6, the smallest normal
    return static_cast<std::uint8_t>(cm::round_shift_even(u - (120U << 23), 20));
  }
  const std::uint32_t exponent = u >> 23;
  if (exponent < 117U) {  // below 2^-10
    return 0;
  }
  return static_cast<std::uint8_t>(cm::round_shift_even((u & 0x7fffffU) | 0x800000U, static_cast<int>(141U - exponent)));
}

LYNXSIM_HOST_DEVICE inline float e4m3_value(std::uint8_t code) {
  const std::uint32_t exponent = (code >> 3) & 15U;
  const std::uint32_t mantissa = code & 7U;
  if ((code & 0x7fU) == 0x7fU) {
    return cm::bits_float(0x7fc00000U);
  }
  const float magnitude = exponent == 0 ? static_cast<float>(mantissa) * 0.001953125F
                                        : cm::bits_float(((exponent + 120U) << 23) | (mantissa << 20));
  return (code & 0x80U) != 0 ? -magnitude : magnitude;
}

// NVFP4's tensor scale from the tensor's amax: amax / (6·448) (TensorRT Model Optimizer,
// NVFP4QTensor.get_weights_scaling_factor_2), floored at 2^−100 so that 1/(block scale · tensor
// scale) stays finite for every block (a difference only for tensors with amax below 2.1·10^−27).
LYNXSIM_HOST_DEVICE inline float nvfp4_tensor_scale(float amax) {
  const float scale = amax / (kE2m1Max * kE4m3Max);
  const float floor = cm::bits_float(27U << 23);
  return scale > floor ? scale : floor;
}

// NVFP4 block of amax b (float bits, non-negative) under tensor scale s2:
//   code = E4M3(b / (6·s2)), decode scale d = E4M3value(code)·s2, encode multiplier 1/d (0 when
//   d = 0: the block's elements all become signed zeros).
struct Nvfp4Block {
  std::uint8_t code;
  float decode_scale;
  float encode_multiplier;
};

LYNXSIM_HOST_DEVICE inline Nvfp4Block nvfp4_block_of_code(std::uint8_t code, float tensor_scale) {
  Nvfp4Block block{};
  block.code = code;
  block.decode_scale = e4m3_value(code) * tensor_scale;
  block.encode_multiplier = block.decode_scale != 0.0F ? 1.0F / block.decode_scale : 0.0F;
  return block;
}

LYNXSIM_HOST_DEVICE inline Nvfp4Block nvfp4_block(float block_amax, float tensor_scale) {
  return nvfp4_block_of_code(e4m3_code(block_amax / (kE2m1Max * tensor_scale)), tensor_scale);
}

// MXFP4 shared scale of a block of amax bits (sign cleared, finite): X = 2^(floor(log2 amax) − 2)
// (OCP MX v1.0, section 6.3, emax_elem = 2 for E2M1), clamped below at 2^−127; E8M0 code =
// max(exponent field of amax − 2, 0). An all-zero block, or one whose amax is below 2^−125, gets
// code 0.
LYNXSIM_HOST_DEVICE inline std::uint8_t mxfp4_scale_code(std::uint32_t amax_bits) {
  const std::uint32_t exponent = amax_bits >> 23;
  return static_cast<std::uint8_t>(exponent > 2U ? exponent - 2U : 0U);
}

// 1/X, exact: 2^(127 − code) for codes 0..252 (the encoder's range).
LYNXSIM_HOST_DEVICE inline float mxfp4_encode_multiplier(std::uint8_t code) {
  return cm::bits_float((254U - code) << 23);
}

LYNXSIM_HOST_DEVICE inline float e8m0_value(std::uint8_t code) {
  if (code == kE8m0Nan) {
    return cm::bits_float(0x7fc00000U);
  }
  return cm::bits_float(code == 0 ? 0x00400000U : static_cast<std::uint32_t>(code) << 23);
}

}  // namespace lynxsim::quant::fp4_math
