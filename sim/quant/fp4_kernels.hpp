#pragma once
// Block loops of the FP4 codec (fp4_codec.hpp), over a flat array of whole blocks: the scalar loops
// (the oracle's, fp4_kernels_portable.cpp) and the AVX2 loops (fp4_kernels_avx2.cpp), which give the
// same bits. Block b covers x[b·B, (b+1)·B), its scale byte is scales[b] and its codes are
// codes[b·B/2, (b+1)·B/2), B = fp4_block_size(format). tensor_scale is nvfp4's s2 (ignored for mxfp4).
//
// Magnitudes are compared as float bits with the sign cleared: for non-negative floats the integer
// order is the numeric one, and NaN's bits exceed infinity's (0x7f800000), so one integer maximum
// gives the amax and tells whether some value is not finite (no libm min/max calls).

#include <cstddef>
#include <cstdint>
#include <optional>

#include "sim/quant/fp4_codec.hpp"
#include "sim/quant/span_kernels.hpp"

namespace lynxsim::quant::fp4_detail {

inline constexpr std::uint32_t kNonFiniteBits = 0x7f800000U;

struct BlockSpan {
  Fp4Format format = Fp4Format::nvfp4;
  std::size_t blocks = 0;
  float tensor_scale = 1.0F;
  std::uint8_t* residual = nullptr;  // nvfp4: the lynx-nvfp4 residual nibbles written with the codes, or none
};

// Largest |x| of x[0, n) as float bits.
std::uint32_t abs_max_bits_portable(const float* x, std::size_t n);
// Encodes the blocks; returns the largest block amax as float bits.
std::uint32_t encode_blocks_portable(const BlockSpan& span, const float* x, std::uint8_t* scales, std::uint8_t* codes);
void decode_blocks_portable(const BlockSpan& span, const std::uint8_t* scales, const std::uint8_t* codes, float* out);

// encode_fp4_into (fp4_codec.hpp) for nvfp4 that also writes the lynx-nvfp4 residual
// (lynx_nvfp4.hpp) of every element, tokens·channels/2 bytes at residual, in the same pass.
void encode_nvfp4_with_residual(BlockView input, Fp4Encoded& anchor, std::uint8_t* residual, KernelIsa isa,
                                std::optional<float> tensor_amax);

#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
std::uint32_t abs_max_bits_avx2(const float* x, std::size_t n);
std::uint32_t encode_blocks_avx2(const BlockSpan& span, const float* x, std::uint8_t* scales, std::uint8_t* codes);
void decode_blocks_avx2(const BlockSpan& span, const std::uint8_t* scales, const std::uint8_t* codes, float* out);
#endif

}  // namespace lynxsim::quant::fp4_detail
