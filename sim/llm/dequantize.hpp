#pragma once
// Dequantization of ggml blocks into float.
//
// All scales are IEEE half precision (f16) stored little-endian; a block of 32 values holds:
//   Q4_0: d, 16 bytes of nibbles            x[j] = (lo_j - 8) d,          x[j+16] = (hi_j - 8) d
//   Q4_1: d, m, 16 bytes of nibbles         x[j] = lo_j d + m,            x[j+16] = hi_j d + m
//   Q5_0: d, 32 high bits, 16 nibble bytes  x[j] = ((lo_j | b5_j) - 16) d (b5 from bit j of qh)
//   Q5_1: d, m, 32 high bits, 16 bytes      x[j] = (lo_j | b5_j) d + m
//   Q8_0: d, 32 signed bytes                x[j] = q_j d
// where lo_j / hi_j are the low / high nibble of byte j (j < 16); for Q5 the fifth bit of value j
// is bit j of the 32-bit qh, and of value j+16 bit j+16. The k-quants Q4_K and Q6_K use blocks of
// 256 values (dequantize_k.hpp). F16 and BF16 are widened exactly; F32 is
// copied. Results are exact in float for every type (one product and one sum of f16-exact values
// rounded once), which is what ggml's own reference dequantization computes.

#include <cstddef>
#include <cstdint>
#include <span>

#include "sim/llm/ggml_type.hpp"

namespace lynxsim::llm {

float f16_to_float(std::uint16_t bits);
float bf16_to_float(std::uint16_t bits);
// Round-to-nearest-even to bf16 (NaN stays NaN).
std::uint16_t float_to_bf16(float value);
// Round-to-nearest-even to f16 with overflow to infinity.
std::uint16_t float_to_f16(float value);

// Decodes `out.size()` values of `type` from `bytes`; throws std::invalid_argument when the count
// is not a whole number of blocks or `bytes` is not exactly the size those blocks take.
void dequantize(GgmlType type, std::span<const std::uint8_t> bytes, std::span<float> out);

}  // namespace lynxsim::llm
