#pragma once
// lynx-nvfp4: a progressive code of two planes whose anchor is an NVFP4 code (fp4_codec.hpp) and
// whose residual refines each element inside the NVFP4 rounding cell its anchor code names.
//
// Anchor (plane 0): the nvfp4 bytes of the block, s2 + E4M3 block scales + E2M1 nibbles: 4.5 bits
// per element (+ 4 bytes per tensor). Anchor reconstruction: the NVFP4 value E2M1(q)·d_b.
// Residual (plane 1): one 4-bit level r per element (two per byte, the even element in the low
// nibble, like the anchor), no metadata of its own. In the block's scaled units v = x·(1/d_b), the
// anchor magnitude code k says |v| lies in the cell [lo_k, hi_k] between the E2M1 rounding
// thresholds (fp4_math.hpp), with lo = 0, 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5 and hi the next lo;
// the top cell, whose values saturate to 6, is taken as [5, 7] (|v| <= 6·(1 + 2^−4) when the
// E4M3 block scale is normal; beyond 7, from subnormal block scales or a given tensor amax below
// the data's, the level clamps). With step w_k/16, w_k = hi_k − lo_k (0.25 for k = 0, 0.5 up to
// 1.75, then 0.75, 1, 1.5, 2: exact binary fractions):
//   r = clamp(floor((|v| − lo_k)·(1/step_k)), 0, 15),  full reconstruction ±(lo_k + (r + ½)·step_k)·d_b
// (1/step_k a float32 constant, 64/3 and 32/3 rounded for the cells of width 0.75 and 1.5)
// with the anchor's sign (a zero anchor code keeps the sign of x, so the residual refines [0, 0.25]
// on the right side of zero). The residual is uniform within the cell, so the full code's error is
// at most step_k/2 = w_k/32 of d_b: 1/64 of d_b below |v| = 1.75, 1/16 in the top cell.
// Bytes: anchor 4 + n/16 + n/2, residual n/2 for n = tokens·channels: 8.5 bits per element in all,
// the bytes of the integer lynx 4+4 split with per-token groups of 64 (4 + 4 bits + 32 bits of fp16
// scale and minimum per 64 elements), whose anchor is also 4.5 bits.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/quant/fp4_codec.hpp"

namespace lynxsim::quant {

struct LynxNvfp4Encoded {
  Fp4Encoded anchor;
  std::vector<std::uint8_t> residual;
};

// Wire bytes of plane 0 (anchor) and plane 1 (residual) of a tokens × channels block.
std::array<std::size_t, 2> lynx_nvfp4_plane_bytes(int tokens, int channels);

// The anchor is encode_fp4's nvfp4 code (kernels of `isa`, bit-identical to the oracle; the AVX2
// encoder writes the residual in the same pass); tensor_amax as there. Throws std::invalid_argument for a head dimension that is not a multiple of 16 or for
// non-finite input.
LynxNvfp4Encoded encode_lynx_nvfp4(BlockView input, std::optional<float> tensor_amax = std::nullopt,
                                   KernelIsa isa = best_kernel_isa());

// planes_received 1: the anchor reconstruction; 2: the full one.
void decode_lynx_nvfp4(const LynxNvfp4Encoded& encoded, int planes_received, MutableBlockView output,
                       KernelIsa isa = best_kernel_isa());

}  // namespace lynxsim::quant
