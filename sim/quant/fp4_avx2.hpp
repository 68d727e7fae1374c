#pragma once
// AVX2 building blocks shared by the FP4 kernels and the lynx-nvfp4 residual kernels: nibble
// packing of the codes (fp4_codec.hpp's layout: two codes per byte, the even element in the low
// nibble), the lynx-nvfp4 residual cells and levels, and the decoders' stores.
// Include only from translation units built for x86 with GCC or Clang (LYNXSIM_QUANT_AVX2_KERNELS).

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "sim/quant/avx2_codes.hpp"
#include "sim/quant/lynx_nvfp4_kernels.hpp"

namespace lynxsim::quant::avx2 {

// 32 codes (0..15), eight per register in element order, into 16 bytes at out.
LYNXSIM_AVX2_INLINE void pack_nibbles32(__m256i q0, __m256i q1, __m256i q2, __m256i q3, std::uint8_t* out) {
  const __m256i bytes = bytes_of(q0, q1, q2, q3, _mm256_set1_epi8(15));
  const __m256i joined = _mm256_and_si256(_mm256_or_si256(bytes, _mm256_srli_epi16(bytes, 4)), _mm256_set1_epi16(0xff));
  const __m128i packed = _mm_packus_epi16(_mm256_castsi256_si128(joined), _mm256_extracti128_si256(joined, 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), packed);
}

// The 32 codes of 16 bytes, eight per register in element order.
LYNXSIM_AVX2_INLINE void unpack_nibbles32(const std::uint8_t* in, __m256i* codes) {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
  const __m128i low = _mm_and_si128(bytes, _mm_set1_epi8(15));
  const __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), _mm_set1_epi8(15));
  const __m128i first = _mm_unpacklo_epi8(low, high);
  const __m128i second = _mm_unpackhi_epi8(low, high);
  codes[0] = _mm256_cvtepu8_epi32(first);
  codes[1] = _mm256_cvtepu8_epi32(_mm_srli_si128(first, 8));
  codes[2] = _mm256_cvtepu8_epi32(second);
  codes[3] = _mm256_cvtepu8_epi32(_mm_srli_si128(second, 8));
}

// The E2M1 rounding cell of each lane's anchor code (its low three bits): lower edge, step, 1/step.
LYNXSIM_AVX2_INLINE __m256 cell_low(__m256i code) {
  return _mm256_permutevar8x32_ps(_mm256_loadu_ps(lynx_nvfp4_detail::kCellLow), code);
}

LYNXSIM_AVX2_INLINE __m256 cell_step(__m256i code) {
  return _mm256_permutevar8x32_ps(_mm256_loadu_ps(lynx_nvfp4_detail::kCellStep), code);
}

LYNXSIM_AVX2_INLINE __m256 cell_steps_per_unit(__m256i code) {
  return _mm256_permutevar8x32_ps(_mm256_loadu_ps(lynx_nvfp4_detail::kCellStepsPerUnit), code);
}

// The lynx-nvfp4 residual levels of x[0, 8) under the block multiplier and their anchor codes.
LYNXSIM_AVX2_INLINE __m256i residual_level8(const float* x, __m256 multiplier, __m256i anchor) {
  const __m256 v = _mm256_mul_ps(_mm256_loadu_ps(x), multiplier);
  const __m256 a = _mm256_and_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
  const __m256 steps = _mm256_mul_ps(_mm256_sub_ps(a, cell_low(anchor)), cell_steps_per_unit(anchor));
  const __m256 clamped = _mm256_min_ps(_mm256_max_ps(steps, _mm256_setzero_ps()), _mm256_set1_ps(15.0F));
  return _mm256_cvttps_epi32(clamped);
}

// Decoded outputs of this many floats and more go to memory with non-temporal stores (no read for
// ownership of lines that are overwritten whole): about half a core's 2 MiB L2, beyond which they
// would not stay in the cache anyway. Such stores need 16-byte alignment (what malloc guarantees).
inline constexpr std::size_t kStreamingFloats = std::size_t{1} << 18;

inline bool streaming(const float* out, std::size_t floats) {
  return floats >= kStreamingFloats && (reinterpret_cast<std::uintptr_t>(out) & 15U) == 0;
}

// Eight floats to out: two 16-byte non-temporal stores when Streaming, else one unaligned store.
template <bool Streaming>
LYNXSIM_AVX2_INLINE void store8(float* out, __m256 value) {
  if constexpr (Streaming) {
    _mm_stream_ps(out, _mm256_castps256_ps128(value));
    _mm_stream_ps(out + 4, _mm256_extractf128_ps(value, 1));
  } else {
    _mm256_storeu_ps(out, value);
  }
}

}  // namespace lynxsim::quant::avx2
