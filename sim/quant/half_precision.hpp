#pragma once
// 16-bit floating-point formats used for KV metadata and for the 16-bit reference path.
//
// IEEE binary16 (fp16): 1 sign, 5 exponent (bias 15), 10 mantissa bits; largest finite 65504,
// smallest normal 2^-14, smallest subnormal 2^-24. Every group scale and minimum travels as fp16.
// bfloat16 (bf16): the upper 16 bits of a binary32 (8 exponent bits, 7 mantissa bits); same range as
// float32, about 3 significant decimal digits. It is the "no quantization" 16-bit KV format.
//
// Both conversions from float32 round to nearest, ties to even, as hardware converters do:
//   - fp16: values >= 65520 in magnitude overflow to infinity, values below 2^-25 flush to signed zero,
//     the subnormal range is rounded on its 2^-24 grid;
//   - bf16: the discarded 16 low bits are rounded into the kept ones; a carry may overflow to infinity.
// NaN stays NaN (quiet, sign kept); infinities stay infinities. Conversions to float32 are exact.

#include <cstdint>
#include <span>
#include <vector>

namespace lynxsim::quant {

std::uint16_t float_to_fp16(float value);
float fp16_to_float(std::uint16_t bits);

std::uint16_t float_to_bf16(float value);
float bf16_to_float(std::uint16_t bits);

// Rounds every value through fp16 / bf16 and back (what a 16-bit transfer delivers).
float round_to_fp16(float value);
float round_to_bf16(float value);

std::vector<std::uint16_t> to_bf16(std::span<const float> values);
std::vector<float> from_bf16(std::span<const std::uint16_t> bits);

}  // namespace lynxsim::quant
