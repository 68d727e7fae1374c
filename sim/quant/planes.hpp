#pragma once
// Bit planes of a quantized code (Lynx progressive transfer).
//
// A b-bit code q is cut, from the most significant bit down, into planes of widths w_0, ..., w_{n−1}
// with Σ w_i = b (4+4, 2+2+4, 3+5, 2+6, 1+1+2+4, ...). Plane i holds
//   p_i = (q >> r_i) & (2^{w_i} − 1),   r_i = Σ_{j>i} w_j.
// Merging all planes, q = Σ p_i << r_i, restores the code bit-exactly.
// After the first k planes (a = Σ_{i<k} w_i bits) the receiver knows hi = q >> (b − a), and q lies in
// the bucket [hi·2^{b−a}, hi·2^{b−a} + 2^{b−a} − 1]. The unbiased reconstruction is the bucket middle
//   x̂ = (hi·2^{b−a} + (2^{b−a} − 1)/2)·s + m,
// whose error is that of an a-bit quantizer with step 2^{b−a}·s (RMSE ≈ 2^{b−a}·s/√12). The floor
// (hi·2^{b−a}·s + m) is kept only to show its bias (about twice the error). With k = n both give
// q·s + m exactly as dequantize() does.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/quant/quantized_block.hpp"
#include "sim/quant/tensor_view.hpp"

namespace lynxsim::quant {

struct PlaneSplit {
  std::vector<int> bits;  // widths from the most significant plane down; each >= 1, sum = code bits

  static PlaneSplit single(int code_bits) { return PlaneSplit{{code_bits}}; }
  int num_planes() const { return static_cast<int>(bits.size()); }
  int total_bits() const;
  int bits_in_first(int k) const;  // Σ of the first k widths
  int shift_of(int plane) const;   // r_i
  void validate(int code_bits) const;  // throws std::invalid_argument
};

std::string to_string(const PlaneSplit& split);  // "4+4", "2+2+4", "(empty)"


using PlaneCodes = std::vector<std::vector<std::uint8_t>>;  // per plane, one code per element

enum class AnchorRounding { midpoint, floor };

PlaneCodes split_planes(std::span<const std::uint8_t> codes, int code_bits, const PlaneSplit& split);
std::vector<std::uint8_t> merge_planes(const PlaneCodes& planes, const PlaneSplit& split);

// Reconstruction from the first k planes, using the metadata (config, scales, mins) of `block`.
// The first overload reads the planes directly; the second derives them from block.codes.
void reconstruct_from_planes(const QuantizedBlock& block, const PlaneCodes& planes, const PlaneSplit& split,
                             int k, MutableBlockView output, AnchorRounding rounding = AnchorRounding::midpoint);
std::vector<float> reconstruct_from_planes(const QuantizedBlock& block, const PlaneSplit& split, int k,
                                           AnchorRounding rounding = AnchorRounding::midpoint);

}  // namespace lynxsim::quant
