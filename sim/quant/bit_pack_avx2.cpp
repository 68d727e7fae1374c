// AVX2 plane packers for widths 1, 2, 4 and 8 (bit_pack.hpp gives the bit-stream layout), 32 codes
// per step. Extraction of a plane, (code >> shift) & (2^w − 1), shifts 16-bit lanes and masks bytes
// (the bits pulled in from the neighbouring byte are masked off because w + shift <= 8). Packing:
//   w = 8: the masked bytes;  w = 1: movemask of bit `shift` moved to bit 7;
//   w = 4: maddubs with (1, 16) joins byte pairs, a byte shuffle and a lane permute compact them;
//   w = 2: maddubs with (1, 4), then madd with (1, 16) joins four codes per 32-bit lane.
// Unpacking spreads the fields back with zero extension, shifts and masks (w = 1: byte broadcast and
// a bit test) and ORs them, shifted into place, into the code bytes.

#include "sim/quant/span_kernels.hpp"

#if defined(LYNXSIM_QUANT_AVX2_KERNELS)

#include <immintrin.h>

#include <cstring>

#define LYNXSIM_AVX2 __attribute__((target("avx2")))

namespace lynxsim::quant {
namespace {

LYNXSIM_AVX2 inline __m256i plane_of(const std::uint8_t* codes, __m128i shift, __m256i mask) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(codes));
  return _mm256_and_si256(_mm256_srl_epi16(v, shift), mask);
}

LYNXSIM_AVX2 inline void store_low16(std::uint8_t* out, __m256i compact_lanes) {
  const __m256i joined = _mm256_permute4x64_epi64(compact_lanes, 0x08);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(joined));
}

LYNXSIM_AVX2 inline void store_low8(std::uint8_t* out, __m256i compact_lanes) {
  const __m256i joined = _mm256_permutevar8x32_epi32(compact_lanes, _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(joined));
}

template <int Bits>
LYNXSIM_AVX2 inline void pack_step(const std::uint8_t* codes, __m256i p, int shift, std::uint8_t* out) {
  if constexpr (Bits == 8) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), p);
  } else if constexpr (Bits == 4) {
    const __m256i pairs = _mm256_maddubs_epi16(p, _mm256_set1_epi16(0x1001));
    store_low16(out, _mm256_shuffle_epi8(pairs, _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, -1, -1, -1, -1, -1, -1,
                                                                 -1, -1, 0, 2, 4, 6, 8, 10, 12, 14, -1, -1, -1, -1,
                                                                 -1, -1, -1, -1)));
  } else if constexpr (Bits == 2) {
    const __m256i pairs = _mm256_maddubs_epi16(p, _mm256_set1_epi16(0x0401));
    const __m256i quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00100001));
    store_low8(out, _mm256_shuffle_epi8(quads, _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                                -1, -1, 0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1,
                                                                -1, -1, -1, -1)));
  } else {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(codes));
    const auto word =
        static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_sll_epi16(v, _mm_cvtsi32_si128(7 - shift))));
    std::memcpy(out, &word, sizeof word);
  }
}

template <int Bits>
LYNXSIM_AVX2 std::size_t pack_vectors(const std::uint8_t* codes, std::size_t n, int shift, std::uint8_t* out) {
  const __m128i count = _mm_cvtsi32_si128(shift);
  const __m256i mask = _mm256_set1_epi8(static_cast<char>((1 << Bits) - 1));
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i p = mask;
    if constexpr (Bits != 1) {
      p = plane_of(codes + i, count, mask);
    }
    pack_step<Bits>(codes + i, p, shift, out + i * Bits / 8);
  }
  return i;
}

LYNXSIM_AVX2 inline __m256i spread_bits(const std::uint8_t* bytes, int bits) {
  if (bits == 8) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes));
  }
  if (bits == 4) {
    const __m256i x = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes)));
    return _mm256_or_si256(_mm256_and_si256(x, _mm256_set1_epi16(0x000f)),
                           _mm256_and_si256(_mm256_slli_epi16(x, 4), _mm256_set1_epi16(0x0f00)));
  }
  if (bits == 2) {
    const __m256i x = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(bytes)));
    const __m256i c01 = _mm256_or_si256(_mm256_and_si256(x, _mm256_set1_epi32(0x3)),
                                        _mm256_and_si256(_mm256_slli_epi32(x, 6), _mm256_set1_epi32(0x300)));
    const __m256i c23 = _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32(x, 12), _mm256_set1_epi32(0x30000)),
                                        _mm256_and_si256(_mm256_slli_epi32(x, 18), _mm256_set1_epi32(0x3000000)));
    return _mm256_or_si256(c01, c23);
  }
  std::uint32_t word = 0;
  std::memcpy(&word, bytes, sizeof word);
  const __m256i spread = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(word)),
                                             _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
                                                              2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3));
  const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ULL));
  return _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit), _mm256_set1_epi8(1));
}

}  // namespace

std::size_t pack_shifted_avx2(const std::uint8_t* codes, std::size_t n, int shift, int bits, std::uint8_t* out) {
  switch (bits) {
    case 1: return pack_vectors<1>(codes, n, shift, out);
    case 2: return pack_vectors<2>(codes, n, shift, out);
    case 4: return pack_vectors<4>(codes, n, shift, out);
    case 8: return pack_vectors<8>(codes, n, shift, out);
    default: return 0;
  }
}

LYNXSIM_AVX2 std::size_t unpack_merge_avx2(const std::uint8_t* bytes, std::size_t n, int bits, int shift,
                                           std::uint8_t* codes) {
  if (bits != 1 && bits != 2 && bits != 4 && bits != 8) {
    return 0;
  }
  const __m128i count = _mm_cvtsi32_si128(shift);
  const auto step = static_cast<std::size_t>(4 * bits);
  std::size_t i = 0;
  for (std::size_t k = 0; i + 32 <= n; i += 32, k += step) {
    auto* target = reinterpret_cast<__m256i*>(codes + i);
    const __m256i fields = _mm256_sll_epi16(spread_bits(bytes + k, bits), count);
    _mm256_storeu_si256(target, _mm256_or_si256(_mm256_loadu_si256(target), fields));
  }
  return i;
}

}  // namespace lynxsim::quant

#endif
