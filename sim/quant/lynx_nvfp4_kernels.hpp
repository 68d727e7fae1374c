#pragma once
// Loops of the lynx-nvfp4 residual (lynx_nvfp4.hpp) over whole nvfp4 blocks of 16: the scalar ones
// (lynx_nvfp4.cpp) and the AVX2 refinement (lynx_nvfp4_avx2.cpp), which give the same bits. The
// AVX2 encoder writes the residual in the nvfp4 encode pass itself (fp4_kernels_avx2.cpp, with
// fp4_avx2.hpp's residual_level8); the scalar encoder runs residual_portable after its blocks. Block b covers
// x[16b, 16b + 16), its E4M3 scale is scales[b] and its anchor and residual nibbles are the bytes
// [8b, 8b + 8) of anchor and residual.

#include <cstddef>
#include <cstdint>

#include "sim/quant/span_kernels.hpp"

namespace lynxsim::quant::lynx_nvfp4_detail {

// Lower edge and step (cell width / 16) of the E2M1 rounding cell of each magnitude code.
inline constexpr float kCellLow[8] = {0.0F, 0.25F, 0.75F, 1.25F, 1.75F, 2.5F, 3.5F, 5.0F};
inline constexpr float kCellStep[8] = {0.25F / 16, 0.5F / 16, 0.5F / 16, 0.5F / 16,
                                       0.75F / 16, 1.0F / 16, 1.5F / 16, 2.0F / 16};
// 1/step as float32 (64/3 and 32/3 rounded): the encoder multiplies by it rather than dividing.
inline constexpr float kCellStepsPerUnit[8] = {64.0F, 32.0F, 32.0F, 32.0F, 64.0F / 3.0F, 16.0F, 32.0F / 3.0F, 8.0F};

struct ResidualSpan {
  std::size_t blocks = 0;
  const std::uint8_t* scales = nullptr;
  float tensor_scale = 1.0F;
  const std::uint8_t* anchor = nullptr;
};

void residual_portable(const ResidualSpan& span, const float* x, std::uint8_t* residual);
void refine_portable(const ResidualSpan& span, const std::uint8_t* residual, float* out);

#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
void refine_avx2(const ResidualSpan& span, const std::uint8_t* residual, float* out);
#endif

}  // namespace lynxsim::quant::lynx_nvfp4_detail
