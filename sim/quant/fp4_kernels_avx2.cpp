// AVX2 loops of the FP4 codec (fp4_kernels.hpp), bit-identical to the scalar ones.
//
// Encode, 32 elements per step: |x| as float bits for the block amax (integer max), the element
// multiplier broadcast from the block's lane, x·m (one rounded multiply, as the scalar code), then
// E2M1 by float rounding on the step grid (e2m1_codes8; the scalar code compares with the rounding
// thresholds, and the tests check that both agree at and beside every threshold), the sign from
// bit 31, and the 32 codes joined into 16 bytes of nibble pairs. nvfp4 takes eight blocks at a time so that their E4M3 scales are computed in one register:
// the block amaxes are reduced by a transpose, then the divide, the E4M3 rounding (the normal range
// by integer round-half-even on the float bits, the subnormal range by vcvtps2dq of x·2^9, which is
// exact there and rounds half to even like the scalar shift), the decode and the reciprocal. The
// tail of fewer than eight blocks runs the scalar loop. When the span asks for the lynx-nvfp4
// residual, its levels are computed from the same x·m and codes in the same step (fp4_avx2.hpp). Decode: nibbles to lanes, the E2M1
// magnitude by a lane permute of the eight values, the sign bit OR-ed in, one multiply; outputs of
// 2^18 floats and more are written with non-temporal stores (the lines are overwritten whole, so
// reading them for ownership first, as ordinary stores do, would double the memory traffic).

#include "sim/quant/fp4_kernels.hpp"

#if defined(LYNXSIM_QUANT_AVX2_KERNELS)

#include <immintrin.h>

#include <cstdint>

#include "sim/quant/fp4_avx2.hpp"
#include "sim/quant/fp4_math.hpp"

#define LYNXSIM_FP4_AVX2 __attribute__((target("avx2")))
#define LYNXSIM_FP4_AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline

namespace lynxsim::quant::fp4_detail {
namespace {

namespace fm = fp4_math;

// Requests the cache lines kPrefetchFloats ahead of x: the encoders' compute does not overlap
// the memory stream well enough without it on a single core.
constexpr std::size_t kPrefetchFloats = 512;

LYNXSIM_FP4_AVX2_INLINE void prefetch_ahead(const float* x, int lines) {
  for (int k = 0; k < lines; ++k) {
    _mm_prefetch(reinterpret_cast<const char*>(x + kPrefetchFloats + 16 * static_cast<std::size_t>(k)), _MM_HINT_T0);
  }
}

LYNXSIM_FP4_AVX2_INLINE __m256i abs_bits8(const float* x) {
  return _mm256_and_si256(_mm256_castps_si256(_mm256_loadu_ps(x)), _mm256_set1_epi32(0x7fffffff));
}

LYNXSIM_FP4_AVX2_INLINE std::uint32_t reduce_max(__m256i v) {
  __m128i m = _mm_max_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  m = _mm_max_epu32(m, _mm_shuffle_epi32(m, 0x4e));
  m = _mm_max_epu32(m, _mm_shuffle_epi32(m, 0xb1));
  return static_cast<std::uint32_t>(_mm_cvtsi128_si32(m));
}

// E2M1 codes of x·m. a = min(|x·m|, 8) with binade offset e = max(floor(log2 a), 0) in {0, 1, 2}:
// adding M = 2^(22 + e), whose float32 ulp is a's E2M1 step (0.5 below 2, 1 in [2, 4), 2 in [4, 8)),
// rounds a to that step, half to even on the step grid, which is the even E2M1 code. The sum's
// bits minus M's count the steps, 0..4, and the code is that count + 2e, clamped to 7 (a that
// rounds to 8). No subnormal intermediate (a microcode assist on many x86 cores).
LYNXSIM_FP4_AVX2_INLINE __m256i e2m1_codes8(__m256 x, __m256 multiplier) {
  const __m256i bits = _mm256_castps_si256(_mm256_mul_ps(x, multiplier));
  const __m256i a_bits = _mm256_min_epu32(_mm256_and_si256(bits, _mm256_set1_epi32(0x7fffffff)),
                                          _mm256_set1_epi32(0x41000000));
  const __m256i offset = _mm256_sub_epi32(
      _mm256_max_epi32(_mm256_and_si256(a_bits, _mm256_set1_epi32(0x7f800000)), _mm256_set1_epi32(127 << 23)),
      _mm256_set1_epi32(127 << 23));
  const __m256i magic = _mm256_add_epi32(offset, _mm256_set1_epi32(149 << 23));
  const __m256i sum = _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(a_bits), _mm256_castsi256_ps(magic)));
  const __m256i steps = _mm256_add_epi32(_mm256_sub_epi32(sum, magic), _mm256_srli_epi32(offset, 22));
  const __m256i magnitude = _mm256_min_epi32(steps, _mm256_set1_epi32(7));
  return _mm256_or_si256(magnitude, _mm256_and_si256(_mm256_srli_epi32(bits, 28), _mm256_set1_epi32(8)));
}

// 32 elements x[0, 32), elements [0, 16) under m0 and [16, 32) under m1, into 16 code bytes.
// With Residual, also the 32 lynx-nvfp4 residual levels of those codes into 16 bytes at residual.
template <bool Residual>
LYNXSIM_FP4_AVX2_INLINE void encode32(const float* x, __m256 m0, __m256 m1, std::uint8_t* out, std::uint8_t* residual) {
  const __m256 m[4] = {m0, m0, m1, m1};
  __m256i q[4];
  for (int k = 0; k < 4; ++k) {
    q[k] = e2m1_codes8(_mm256_loadu_ps(x + 8 * k), m[k]);
  }
  avx2::pack_nibbles32(q[0], q[1], q[2], q[3], out);
  if constexpr (Residual) {
    avx2::pack_nibbles32(avx2::residual_level8(x, m0, q[0]), avx2::residual_level8(x + 8, m0, q[1]),
                         avx2::residual_level8(x + 16, m1, q[2]), avx2::residual_level8(x + 24, m1, q[3]), residual);
  }
}

// Lane k = max of m[k]'s eight lanes.
LYNXSIM_FP4_AVX2_INLINE __m256i transpose_max(const __m256i* m) {
  __m256i pairs[4];
  for (int k = 0; k < 4; ++k) {
    pairs[k] = _mm256_max_epu32(_mm256_unpacklo_epi32(m[2 * k], m[2 * k + 1]),
                                _mm256_unpackhi_epi32(m[2 * k], m[2 * k + 1]));
  }
  const __m256i q0 = _mm256_max_epu32(_mm256_unpacklo_epi64(pairs[0], pairs[1]), _mm256_unpackhi_epi64(pairs[0], pairs[1]));
  const __m256i q1 = _mm256_max_epu32(_mm256_unpacklo_epi64(pairs[2], pairs[3]), _mm256_unpackhi_epi64(pairs[2], pairs[3]));
  return _mm256_max_epu32(_mm256_permute2x128_si256(q0, q1, 0x20), _mm256_permute2x128_si256(q0, q1, 0x31));
}

LYNXSIM_FP4_AVX2_INLINE __m256i e4m3_codes8(__m256 value) {
  const __m256i u = _mm256_castps_si256(value);
  const __m256i m = _mm256_sub_epi32(u, _mm256_set1_epi32(120 << 23));
  const __m256i kept = _mm256_srli_epi32(m, 20);
  const __m256i rest = _mm256_and_si256(m, _mm256_set1_epi32(0xfffff));
  const __m256i half = _mm256_set1_epi32(0x80000);
  const __m256i odd = _mm256_cmpeq_epi32(_mm256_and_si256(kept, _mm256_set1_epi32(1)), _mm256_set1_epi32(1));
  const __m256i up = _mm256_or_si256(_mm256_cmpgt_epi32(rest, half), _mm256_and_si256(_mm256_cmpeq_epi32(rest, half), odd));
  const __m256i normal = _mm256_sub_epi32(kept, up);
  const __m256i subnormal = _mm256_cvtps_epi32(_mm256_mul_ps(value, _mm256_set1_ps(512.0F)));
  const __m256i below = _mm256_cmpgt_epi32(_mm256_set1_epi32(121 << 23), u);
  return _mm256_min_epi32(_mm256_blendv_epi8(normal, subnormal, below), _mm256_set1_epi32(fm::kE4m3MaxCode));
}

LYNXSIM_FP4_AVX2_INLINE __m256 e4m3_values8(__m256i code) {
  const __m256i exponent = _mm256_and_si256(_mm256_srli_epi32(code, 3), _mm256_set1_epi32(15));
  const __m256i mantissa = _mm256_and_si256(code, _mm256_set1_epi32(7));
  const __m256 normal = _mm256_castsi256_ps(_mm256_or_si256(
      _mm256_slli_epi32(_mm256_add_epi32(exponent, _mm256_set1_epi32(120)), 23), _mm256_slli_epi32(mantissa, 20)));
  const __m256 subnormal = _mm256_mul_ps(_mm256_cvtepi32_ps(mantissa), _mm256_set1_ps(0.001953125F));
  const __m256 zero_exponent = _mm256_castsi256_ps(_mm256_cmpeq_epi32(exponent, _mm256_setzero_si256()));
  const __m256i sign = _mm256_slli_epi32(_mm256_and_si256(code, _mm256_set1_epi32(0x80)), 24);
  const __m256 value = _mm256_or_ps(_mm256_blendv_ps(normal, subnormal, zero_exponent), _mm256_castsi256_ps(sign));
  const __m256i nan_code = _mm256_set1_epi32(0x7f);
  const __m256 nan = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(code, nan_code), nan_code));
  return _mm256_blendv_ps(value, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fc00000)), nan);
}

LYNXSIM_FP4_AVX2_INLINE __m256 lane(__m256 v, int k) { return _mm256_permutevar8x32_ps(v, _mm256_set1_epi32(k)); }

// Eight nvfp4 blocks (128 elements), with their residual when Residual; returns their amaxes' bits.
template <bool Residual>
LYNXSIM_FP4_AVX2_INLINE __m256i nvfp4_encode8(const float* x, float tensor_scale, std::uint8_t* scales,
                                              std::uint8_t* codes, std::uint8_t* residual) {
  prefetch_ahead(x, 8);
  __m256i amax[8];
  for (int k = 0; k < 8; ++k) {
    amax[k] = _mm256_max_epu32(abs_bits8(x + 16 * k), abs_bits8(x + 16 * k + 8));
  }
  const __m256i block_amax = transpose_max(amax);
  const __m256i code = e4m3_codes8(_mm256_div_ps(_mm256_castsi256_ps(block_amax),
                                                 _mm256_set1_ps(fm::kE2m1Max * tensor_scale)));
  const __m256 scale = _mm256_mul_ps(e4m3_values8(code), _mm256_set1_ps(tensor_scale));
  const __m256 multiplier = _mm256_and_ps(_mm256_div_ps(_mm256_set1_ps(1.0F), scale),
                                          _mm256_cmp_ps(scale, _mm256_setzero_ps(), _CMP_NEQ_OQ));
  alignas(32) std::int32_t code_lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(code_lanes), code);
  for (int k = 0; k < 8; ++k) {
    scales[k] = static_cast<std::uint8_t>(code_lanes[k]);
  }
  for (int k = 0; k < 8; k += 2) {
    encode32<Residual>(x + 16 * k, lane(multiplier, k), lane(multiplier, k + 1), codes + 8 * k,
                       Residual ? residual + 8 * k : nullptr);
  }
  return block_amax;
}

template <bool Residual>
LYNXSIM_FP4_AVX2 std::uint32_t nvfp4_encode(const BlockSpan& span, const float* x, std::uint8_t* scales,
                                            std::uint8_t* codes) {
  __m256i largest = _mm256_setzero_si256();
  std::size_t b = 0;
  for (; b + 8 <= span.blocks; b += 8) {
    largest = _mm256_max_epu32(largest, nvfp4_encode8<Residual>(x + 16 * b, span.tensor_scale, scales + b, codes + 8 * b,
                                                                Residual ? span.residual + 8 * b : nullptr));
  }
  const BlockSpan tail{span.format, span.blocks - b, span.tensor_scale, Residual ? span.residual + 8 * b : nullptr};
  const std::uint32_t tail_max = encode_blocks_portable(tail, x + 16 * b, scales + b, codes + 8 * b);
  const std::uint32_t vector_max = reduce_max(largest);
  return vector_max > tail_max ? vector_max : tail_max;
}

LYNXSIM_FP4_AVX2 std::uint32_t mxfp4_encode(const BlockSpan& span, const float* x, std::uint8_t* scales,
                                            std::uint8_t* codes) {
  std::uint32_t largest = 0;
  for (std::size_t b = 0; b < span.blocks; ++b) {
    const float* xb = x + 32 * b;
    prefetch_ahead(xb, 2);
    const __m256i m = _mm256_max_epu32(_mm256_max_epu32(abs_bits8(xb), abs_bits8(xb + 8)),
                                       _mm256_max_epu32(abs_bits8(xb + 16), abs_bits8(xb + 24)));
    const std::uint32_t amax = reduce_max(m);
    largest = amax > largest ? amax : largest;
    const std::uint8_t code = fm::mxfp4_scale_code(amax < kNonFiniteBits ? amax : kNonFiniteBits);
    scales[b] = code;
    const __m256 multiplier = _mm256_set1_ps(fm::mxfp4_encode_multiplier(code));
    encode32<false>(xb, multiplier, multiplier, codes + 16 * b, nullptr);
  }
  return largest;
}

// 16 code bytes -> 32 floats under scale s0 (elements [0, 16)) and s1 ([16, 32)); Streaming: out is
// 16-byte aligned (what malloc guarantees) and written with 16-byte non-temporal stores.
template <bool Streaming>
LYNXSIM_FP4_AVX2_INLINE void decode32(const std::uint8_t* codes, __m256 s0, __m256 s1, float* out) {
  __m256i unpacked[4];
  avx2::unpack_nibbles32(codes, unpacked);
  const __m256 table = _mm256_setr_ps(0.0F, 0.5F, 1.0F, 1.5F, 2.0F, 3.0F, 4.0F, 6.0F);
  for (int k = 0; k < 4; ++k) {
    const __m256i code = unpacked[k];
    const __m256i sign = _mm256_slli_epi32(_mm256_and_si256(code, _mm256_set1_epi32(8)), 28);
    const __m256 value = _mm256_or_ps(_mm256_permutevar8x32_ps(table, code), _mm256_castsi256_ps(sign));
    avx2::store8<Streaming>(out + 8 * k, _mm256_mul_ps(value, k < 2 ? s0 : s1));
  }
}

template <bool Streaming>
LYNXSIM_FP4_AVX2 std::size_t nvfp4_decode_groups(const BlockSpan& span, const std::uint8_t* scales,
                                                 const std::uint8_t* codes, float* out) {
  std::size_t b = 0;
  for (; b + 8 <= span.blocks; b += 8) {
    const __m256i code = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(scales + b)));
    const __m256 scale = _mm256_mul_ps(e4m3_values8(code), _mm256_set1_ps(span.tensor_scale));
    for (int k = 0; k < 8; k += 2) {
      decode32<Streaming>(codes + 8 * (b + static_cast<std::size_t>(k)), lane(scale, k), lane(scale, k + 1),
                          out + 16 * (b + static_cast<std::size_t>(k)));
    }
  }
  return b;
}

LYNXSIM_FP4_AVX2 void nvfp4_decode(const BlockSpan& span, const std::uint8_t* scales, const std::uint8_t* codes,
                                   float* out) {
  const std::size_t b = avx2::streaming(out, 16 * span.blocks) ? nvfp4_decode_groups<true>(span, scales, codes, out)
                                       : nvfp4_decode_groups<false>(span, scales, codes, out);
  _mm_sfence();
  const BlockSpan tail{span.format, span.blocks - b, span.tensor_scale};
  decode_blocks_portable(tail, scales + b, codes + 8 * b, out + 16 * b);
}

template <bool Streaming>
LYNXSIM_FP4_AVX2 void mxfp4_decode_blocks(const BlockSpan& span, const std::uint8_t* scales, const std::uint8_t* codes,
                                          float* out) {
  for (std::size_t b = 0; b < span.blocks; ++b) {
    const __m256 scale = _mm256_set1_ps(fm::e8m0_value(scales[b]));
    decode32<Streaming>(codes + 16 * b, scale, scale, out + 32 * b);
  }
}

LYNXSIM_FP4_AVX2 void mxfp4_decode(const BlockSpan& span, const std::uint8_t* scales, const std::uint8_t* codes,
                                   float* out) {
  if (avx2::streaming(out, 32 * span.blocks)) {
    mxfp4_decode_blocks<true>(span, scales, codes, out);
  } else {
    mxfp4_decode_blocks<false>(span, scales, codes, out);
  }
  _mm_sfence();
}

}  // namespace

LYNXSIM_FP4_AVX2 std::uint32_t abs_max_bits_avx2(const float* x, std::size_t n) {
  __m256i m0 = _mm256_setzero_si256();
  __m256i m1 = _mm256_setzero_si256();
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    prefetch_ahead(x + i, 1);
    m0 = _mm256_max_epu32(m0, abs_bits8(x + i));
    m1 = _mm256_max_epu32(m1, abs_bits8(x + i + 8));
  }
  const std::uint32_t vector_max = reduce_max(_mm256_max_epu32(m0, m1));
  const std::uint32_t tail_max = abs_max_bits_portable(x + i, n - i);
  return vector_max > tail_max ? vector_max : tail_max;
}

std::uint32_t encode_blocks_avx2(const BlockSpan& span, const float* x, std::uint8_t* scales, std::uint8_t* codes) {
  if (span.format == Fp4Format::mxfp4) {
    return mxfp4_encode(span, x, scales, codes);
  }
  return span.residual != nullptr ? nvfp4_encode<true>(span, x, scales, codes) : nvfp4_encode<false>(span, x, scales, codes);
}

void decode_blocks_avx2(const BlockSpan& span, const std::uint8_t* scales, const std::uint8_t* codes, float* out) {
  if (span.format == Fp4Format::nvfp4) {
    nvfp4_decode(span, scales, codes, out);
  } else {
    mxfp4_decode(span, scales, codes, out);
  }
}

}  // namespace lynxsim::quant::fp4_detail

#endif
