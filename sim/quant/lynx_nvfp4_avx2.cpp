// AVX2 refinement of lynx-nvfp4 (lynx_nvfp4_kernels.hpp), two blocks of 16 per step, the scalar
// arithmetic lane by lane: lo + (r + ½)·step of the anchor code's cell (fp4_avx2.hpp) with the
// anchor's sign, times the block scale, each operation separately rounded (no fused multiply-add);
// large outputs with non-temporal stores. An odd last block runs the scalar loop. (The residual
// levels are written by the nvfp4 encoder itself, fp4_kernels_avx2.cpp.)

#include "sim/quant/lynx_nvfp4_kernels.hpp"

#if defined(LYNXSIM_QUANT_AVX2_KERNELS)

#include <immintrin.h>

#include "sim/quant/fp4_avx2.hpp"
#include "sim/quant/fp4_math.hpp"

#define LYNXSIM_LYNX_NVFP4_AVX2 __attribute__((target("avx2")))

namespace lynxsim::quant::lynx_nvfp4_detail {
namespace {

namespace fm = fp4_math;

LYNXSIM_AVX2_INLINE __m256 refined8(__m256i anchor, __m256i level, __m256 scale) {
  const __m256 offset = _mm256_add_ps(_mm256_cvtepi32_ps(level), _mm256_set1_ps(0.5F));
  const __m256 magnitude = _mm256_add_ps(avx2::cell_low(anchor), _mm256_mul_ps(offset, avx2::cell_step(anchor)));
  const __m256i sign = _mm256_slli_epi32(_mm256_and_si256(anchor, _mm256_set1_epi32(8)), 28);
  return _mm256_mul_ps(_mm256_or_ps(magnitude, _mm256_castsi256_ps(sign)), scale);
}

LYNXSIM_AVX2_INLINE fm::Nvfp4Block block_of(const ResidualSpan& span, std::size_t b) {
  return fm::nvfp4_block_of_code(span.scales[b], span.tensor_scale);
}

ResidualSpan tail_of(const ResidualSpan& span, std::size_t b) {
  return {span.blocks - b, span.scales + b, span.tensor_scale, span.anchor + 8 * b};
}

}  // namespace

template <bool Streaming>
LYNXSIM_LYNX_NVFP4_AVX2 std::size_t refine_pairs(const ResidualSpan& span, const std::uint8_t* residual, float* out) {
  std::size_t b = 0;
  for (; b + 2 <= span.blocks; b += 2) {
    const __m256 s0 = _mm256_set1_ps(block_of(span, b).decode_scale);
    const __m256 s1 = _mm256_set1_ps(block_of(span, b + 1).decode_scale);
    __m256i anchor[4];
    __m256i level[4];
    avx2::unpack_nibbles32(span.anchor + 8 * b, anchor);
    avx2::unpack_nibbles32(residual + 8 * b, level);
    for (int k = 0; k < 4; ++k) {
      avx2::store8<Streaming>(out + 16 * b + 8 * static_cast<std::size_t>(k), refined8(anchor[k], level[k], k < 2 ? s0 : s1));
    }
  }
  return b;
}

LYNXSIM_LYNX_NVFP4_AVX2 void refine_avx2(const ResidualSpan& span, const std::uint8_t* residual, float* out) {
  const std::size_t b = avx2::streaming(out, 16 * span.blocks) ? refine_pairs<true>(span, residual, out)
                                                               : refine_pairs<false>(span, residual, out);
  _mm_sfence();
  refine_portable(tail_of(span, b), residual + 8 * b, out + 16 * b);
}

}  // namespace lynxsim::quant::lynx_nvfp4_detail

#endif
