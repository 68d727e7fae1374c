// AVX2 plane packers for widths 1, 2, 4 and 8 (bit_pack.hpp gives the bit-stream layout), 32 codes
// per step. Extraction of a plane, (code >> shift) & (2^w − 1), shifts 16-bit lanes and masks bytes
// (the bits pulled in from the neighbouring byte are masked off because w + shift <= 8); the packing
// of one register of codes is avx2_codes.hpp's pack_plane32.
// Unpacking spreads the fields back with zero extension, shifts and masks (w = 1: byte broadcast and
// a bit test) and ORs them, shifted into place, into the code bytes.

#include "sim/quant/span_kernels.hpp"

#if defined(LYNXSIM_QUANT_AVX2_KERNELS)

#include "sim/quant/avx2_codes.hpp"

#include <cstring>

#define LYNXSIM_AVX2 __attribute__((target("avx2")))

namespace lynxsim::quant {
namespace {

template <int Bits>
LYNXSIM_AVX2 std::size_t pack_vectors(const std::uint8_t* codes, std::size_t n, int shift, std::uint8_t* out) {
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    avx2::pack_plane32<Bits>(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(codes + i)), shift,
                             out + i * Bits / 8);
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
