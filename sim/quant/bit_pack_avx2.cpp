// AVX2 plane packers for widths 1, 2, 4 and 8 (bit_pack.hpp gives the bit-stream layout), 32 codes
// per step. Extraction of a plane, (code >> shift) & (2^w − 1), shifts 16-bit lanes and masks bytes
// (the bits pulled in from the neighbouring byte are masked off because w + shift <= 8); the packing
// of one register of codes is avx2_codes.hpp's pack_plane32.
// Unpacking spreads the fields back (avx2_codes.hpp's unpack_plane32) and ORs them, shifted into
// place, into the code bytes.

#include "sim/quant/span_kernels.hpp"

#if defined(LYNXSIM_QUANT_AVX2_KERNELS)

#include "sim/quant/avx2_codes.hpp"

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
  switch (bits) {
    case 1: return avx2::unpack_plane32<1>(bytes);
    case 2: return avx2::unpack_plane32<2>(bytes);
    case 4: return avx2::unpack_plane32<4>(bytes);
    default: return avx2::unpack_plane32<8>(bytes);
  }
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
