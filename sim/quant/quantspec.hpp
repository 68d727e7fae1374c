#pragma once
// QuantSpec-style hierarchical 8-bit code (the second Lynx anchor scheme).
//
// Instead of cutting one 8-bit code, the anchor is a native u-bit quantizer (round to nearest) and the
// residual a signed l-bit correction on a finer grid (QuantSpec uses u = l = 4):
//   s_u = fp16((max − min) / (2^u − 1)),  m = fp16(min),
//   a = clamp(round((x − m)/s_u), 0, 2^u − 1),                 anchor only:  x̂ = a·s_u + m
//   s_l = s_u / 2^l (derived, not sent),
//   r = clamp(round((x − (a·s_u + m))/s_l), −2^{l−1}, 2^{l−1} − 1),   full:  x̂ = a·s_u + m + r·s_l.
// The residual is stored offset-binary (r + 2^{l−1}) so it packs as an unsigned l-bit plane.
// Anchor error equals native u-bit; full error is that of a (u+l)-bit quantizer plus the clamping of
// the top half-step of r (|x − anchor| <= s_u/2 = 2^{l−1}·s_l, of which +2^{l−1} is cut to 2^{l−1}−1).
// Wire format and byte counts equal the plain split {u, l} (plane_codec.hpp): metadata in plane 0.
// Valid: u >= 2, l >= 1, u + l <= 8. The anchor is quantize_fast (bit-identical to the oracle); the
// residual and the reconstruction decode each group's fp16 parameters once and run vectorizable loops
// over contiguous spans, with the float32 operations of the equations above in that order.

#include <cstdint>
#include <vector>

#include "sim/quant/plane_codec.hpp"
#include "sim/quant/quant_config.hpp"
#include "sim/quant/tensor_view.hpp"

namespace lynxsim::quant {

struct QuantSpecConfig {
  int upper_bits = 4;
  int lower_bits = 4;
  GroupAxis group_axis = GroupAxis::per_token;
  int group_size = 128;

  void validate() const;
  QuantConfig upper_config() const;  // the asymmetric u-bit config of the anchor
};

struct QuantSpecBlock {
  QuantSpecConfig config;
  int tokens = 0;
  int channels = 0;
  std::vector<std::uint8_t> upper;    // anchor codes in [0, 2^u − 1]
  std::vector<std::uint8_t> lower;    // residual codes, offset binary in [0, 2^l − 1]
  std::vector<std::uint16_t> scales;  // fp16 s_u per group
  std::vector<std::uint16_t> mins;    // fp16 m per group
};

QuantSpecBlock quantize_quantspec(BlockView input, const QuantSpecConfig& config, KernelIsa isa = best_kernel_isa());
// Anchor only (with_lower = false) or anchor + residual.
void dequantize_quantspec(const QuantSpecBlock& block, bool with_lower, MutableBlockView output);
std::vector<float> dequantize_quantspec(const QuantSpecBlock& block, bool with_lower);

// Wire bytes: the (u+l)-bit code (anchor << l) | residual split as {u, l}; plane 0 carries s_u and m.
PlaneEncoded pack_quantspec(const QuantSpecBlock& block);

}  // namespace lynxsim::quant
