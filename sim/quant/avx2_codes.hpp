#pragma once
// AVX2 building blocks shared by the quantizer and the plane packers: 32 codes in one register.
//
// codes32 quantizes 32 floats against one group's (min, 1/s) exactly as quantize_span does:
//   q = clamp(round_half_even((x − m)·(1/s)), 0, max_code)
// with separately rounded sub and mul (no fused multiply-add), and returns the codes as 32 bytes in
// element order. The clamp is applied after rounding, on integers: the saturating packs (int32 → int16
// → uint8) take every negative level to 0 and every level above 255 to 255, and an unsigned byte
// minimum caps at max_code. This equals clamping before rounding (rounding is monotone and 0 and
// max_code are integers) as long as the level converts without overflow, |v| < 2^31: with finite
// inputs |x − m| is at most the range plus half an fp16 ulp of |m| <= 65504 (16), and 1/s <= 2^24
// (s >= the smallest fp16 subnormal), so |v| < 2^29. pack_plane32<w> stores the plane
// (code >> shift) & (2^w − 1) of those 32 codes in bit_pack.hpp's layout (4·w bytes):
//   w = 8: the masked bytes;  w = 1: movemask of bit `shift` moved to bit 7;
//   w = 4: maddubs with (1, 16) joins byte pairs, a byte shuffle and a lane permute compact them;
//   w = 2: maddubs with (1, 4), then madd with (1, 16) joins four codes per 32-bit lane;
// with Stream, through non-temporal stores.
// unpack_plane32<w> is the inverse for shift 0: the 32 fields of 4·w packed bytes, one per byte in
// element order, spread with zero extension, shifts and masks (w = 1: byte broadcast and a bit test).
// Include only from translation units built for x86 with GCC or Clang (LYNXSIM_QUANT_AVX2_KERNELS).

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#define LYNXSIM_AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline

namespace lynxsim::quant::avx2 {

// The rounded, not yet clamped level of 8 floats.
LYNXSIM_AVX2_INLINE __m256i level_of(__m256 x, __m256 min, __m256 inv_scale) {
  return _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_sub_ps(x, min), inv_scale));
}

// The codes of 32 levels in element order, clamped to [0, max_code] (max_code in every byte).
LYNXSIM_AVX2_INLINE __m256i bytes_of(__m256i q0, __m256i q1, __m256i q2, __m256i q3, __m256i max_code) {
  const __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(q0, q1), _mm256_packs_epi32(q2, q3));
  return _mm256_min_epu8(_mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)), max_code);
}

LYNXSIM_AVX2_INLINE __m256i codes32(const float* x, __m256 min, __m256 inv_scale, __m256i max_code) {
  return bytes_of(level_of(_mm256_loadu_ps(x), min, inv_scale), level_of(_mm256_loadu_ps(x + 8), min, inv_scale),
                  level_of(_mm256_loadu_ps(x + 16), min, inv_scale),
                  level_of(_mm256_loadu_ps(x + 24), min, inv_scale), max_code);
}

// max_code in every byte.
LYNXSIM_AVX2_INLINE __m256i code_limit(float max_code) {
  return _mm256_set1_epi8(static_cast<char>(static_cast<int>(max_code)));
}

LYNXSIM_AVX2_INLINE __m256i plane_bits(__m256i codes, int shift, int bits) {
  const __m256i shifted = _mm256_srl_epi16(codes, _mm_cvtsi32_si128(shift));
  return _mm256_and_si256(shifted, _mm256_set1_epi8(static_cast<char>((1 << bits) - 1)));
}

// Stores of 32, 16, 8 and 4 bytes, cached or non-temporal (movntdq, movnti; the 16-byte ones need a
// 16-byte aligned address).
template <bool Stream>
LYNXSIM_AVX2_INLINE void store16(std::uint8_t* out, __m128i v) {
  if constexpr (Stream) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(out), v);
  } else {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), v);
  }
}

template <bool Stream>
LYNXSIM_AVX2_INLINE void store32(std::uint8_t* out, __m256i v) {
  if constexpr (Stream) {
    store16<true>(out, _mm256_castsi256_si128(v));
    store16<true>(out + 16, _mm256_extracti128_si256(v, 1));
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), v);
  }
}

template <bool Stream>
LYNXSIM_AVX2_INLINE void store8(std::uint8_t* out, __m128i v) {
  if constexpr (Stream) {
    _mm_stream_si64(reinterpret_cast<long long*>(out), _mm_cvtsi128_si64(v));
  } else {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), v);
  }
}

template <bool Stream>
LYNXSIM_AVX2_INLINE void store4(std::uint8_t* out, std::uint32_t word) {
  if constexpr (Stream) {
    _mm_stream_si32(reinterpret_cast<int*>(out), static_cast<int>(word));
  } else {
    std::memcpy(out, &word, sizeof word);
  }
}

template <int Bits, bool Stream = false>
LYNXSIM_AVX2_INLINE void pack_plane32(__m256i codes, int shift, std::uint8_t* out) {
  if constexpr (Bits == 8) {
    store32<Stream>(out, plane_bits(codes, shift, 8));
  } else if constexpr (Bits == 4) {
    const __m256i pairs = _mm256_maddubs_epi16(plane_bits(codes, shift, 4), _mm256_set1_epi16(0x1001));
    const __m256i compact = _mm256_shuffle_epi8(
        pairs, _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, -1, -1, -1, -1, -1, -1, -1, -1, 0, 2, 4, 6, 8, 10, 12,
                                14, -1, -1, -1, -1, -1, -1, -1, -1));
    const __m256i joined = _mm256_permute4x64_epi64(compact, 0x08);
    store16<Stream>(out, _mm256_castsi256_si128(joined));
  } else if constexpr (Bits == 2) {
    const __m256i pairs = _mm256_maddubs_epi16(plane_bits(codes, shift, 2), _mm256_set1_epi16(0x0401));
    const __m256i quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00100001));
    const __m256i compact = _mm256_shuffle_epi8(
        quads, _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1, -1,
                                -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    const __m256i joined = _mm256_permutevar8x32_epi32(compact, _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4));
    store8<Stream>(out, _mm256_castsi256_si128(joined));
  } else {
    static_assert(Bits == 1, "plane widths 1, 2, 4 and 8 only");
    store4<Stream>(out, static_cast<std::uint32_t>(
                            _mm256_movemask_epi8(_mm256_sll_epi16(codes, _mm_cvtsi32_si128(7 - shift)))));
  }
}

template <int Bits>
LYNXSIM_AVX2_INLINE __m256i unpack_plane32(const std::uint8_t* bytes) {
  if constexpr (Bits == 8) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes));
  } else if constexpr (Bits == 4) {
    const __m256i x = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes)));
    return _mm256_or_si256(_mm256_and_si256(x, _mm256_set1_epi16(0x000f)),
                           _mm256_and_si256(_mm256_slli_epi16(x, 4), _mm256_set1_epi16(0x0f00)));
  } else if constexpr (Bits == 2) {
    const __m256i x = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(bytes)));
    const __m256i c01 = _mm256_or_si256(_mm256_and_si256(x, _mm256_set1_epi32(0x3)),
                                        _mm256_and_si256(_mm256_slli_epi32(x, 6), _mm256_set1_epi32(0x300)));
    const __m256i c23 = _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32(x, 12), _mm256_set1_epi32(0x30000)),
                                        _mm256_and_si256(_mm256_slli_epi32(x, 18), _mm256_set1_epi32(0x3000000)));
    return _mm256_or_si256(c01, c23);
  } else {
    static_assert(Bits == 1, "plane widths 1, 2, 4 and 8 only");
    std::uint32_t word = 0;
    std::memcpy(&word, bytes, sizeof word);
    const __m256i spread = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(word)),
                                               _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
                                                                2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3));
    const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ULL));
    return _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit), _mm256_set1_epi8(1));
  }
}

}  // namespace lynxsim::quant::avx2
