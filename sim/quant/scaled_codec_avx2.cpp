// Row kernels of the scaled codes (scaled_codec.hpp): the portable loops call fp8_math.hpp element
// by element; the AVX2 loops do the same integer arithmetic on eight lanes.
//
// Bit-exactness with fp8_math: the quotient x / s is a correctly rounded vdivps; the FP8 magnitude
// is the float32 bit pattern rounded to nearest even at the format's mantissa width,
// (a + 2^(k-1) − 1 + ((a >> k) & 1)) >> k, which is round_shift_even for k >= 1 (the exponent rebias
// subtracted before the shift: normal values stay positive); below the smallest
// normal the significand 1.m is rounded the same way by a per-lane shift (capped at 25, where every
// significand rounds to 0; computed only when a lane of the eight is that small); the result is clamped to the largest finite code (saturation) and the
// sign is or-ed back. Inputs are finite (the codec rejects others), so the NaN branch is not needed
// when encoding; an infinite quotient saturates like in fp8_math. INT8 clamps to [−128, 127] and
// converts with vcvtps2dq under the default round-to-nearest-even mode, as the magic-number addition
// of fp8_math rounds. Decoding places the FP8 exponent and mantissa at the float32 fields and
// multiplies by 2^(127 − bias), which is exact (an FP8 subnormal becomes a float32 subnormal first),
// then blends in the NaN and infinity codes.

#include <cmath>

#include "sim/quant/scaled_codec.hpp"
#include "sim/quant/span_kernels.hpp"

#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
#include <immintrin.h>
#define LYNXSIM_SCALED_AVX2 __attribute__((target("avx2")))
#endif

namespace lynxsim::quant::scaled_rows {
namespace {

float amax_portable(const float* x, int n) {
  float m = 0.0F;
  for (int i = 0; i < n; ++i) m = std::fabs(x[i]) > m ? std::fabs(x[i]) : m;
  return m;
}

void encode_portable(const float* x, int n, float scale, ElementCode code, std::uint8_t* out) {
  for (int i = 0; i < n; ++i) out[i] = fp8_math::encode_element(x[i], scale, code);
}

void decode_portable(const std::uint8_t* codes, int n, float scale, ElementCode code, float* out) {
  for (int i = 0; i < n; ++i) out[i] = fp8_math::decode_element(codes[i], scale, code);
}

#if defined(LYNXSIM_QUANT_AVX2_KERNELS)

LYNXSIM_SCALED_AVX2 float amax_avx2(const float* x, int n) {
  const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
  __m256 m = _mm256_setzero_ps();
  int i = 0;
  for (; i + 8 <= n; i += 8) m = _mm256_max_ps(m, _mm256_and_ps(_mm256_loadu_ps(x + i), magnitude));
  __m128 h = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
  h = _mm_max_ps(h, _mm_movehl_ps(h, h));
  h = _mm_max_ss(h, _mm_shuffle_ps(h, h, 1));
  const float lanes = _mm_cvtss_f32(h);
  _mm256_zeroupper();
  const float rest = amax_portable(x + i, n - i);
  return rest > lanes ? rest : lanes;
}

struct Fp8Lanes {
  __m128i drop;            // float32 mantissa bits dropped, as a shift count
  __m256i round_rebias;    // 2^(drop − 1) − 1 − ((127 − bias) << 23): rounding and the exponent's new bias
  __m256i min_normal;      // float32 bits of the smallest normal
  __m256i subnormal_base;  // drop + (1 − bias) + 127: the subnormal shift is this minus the exponent field
  __m256i max_code;
};

LYNXSIM_SCALED_AVX2 Fp8Lanes fp8_lanes(ElementCode code) {
  const fp8_math::Fp8Layout f = fp8_math::fp8_layout(code);
  const int drop = 23 - f.mantissa_bits;
  return {_mm_cvtsi32_si128(drop), _mm256_set1_epi32((1 << (drop - 1)) - 1 - ((127 - f.bias) << 23)),
          _mm256_set1_epi32((128 - f.bias) << 23),
          _mm256_set1_epi32(drop + 1 - f.bias + 127), _mm256_set1_epi32(static_cast<int>(f.max_code))};
}

LYNXSIM_SCALED_AVX2 inline __m256i round_shift_even(__m256i value, __m256i shift) {
  const __m256i one = _mm256_set1_epi32(1);
  const __m256i half_minus_one = _mm256_sub_epi32(_mm256_sllv_epi32(one, _mm256_sub_epi32(shift, one)), one);
  const __m256i odd = _mm256_and_si256(_mm256_srlv_epi32(value, shift), one);
  return _mm256_srlv_epi32(_mm256_add_epi32(_mm256_add_epi32(value, half_minus_one), odd), shift);
}

// The subnormal lanes' magnitudes (rare in KV data: the branch skips them when no lane has one).
LYNXSIM_SCALED_AVX2 inline __m256i subnormal_codes(__m256i a, const Fp8Lanes& k) {
  const __m256i significand =
      _mm256_or_si256(_mm256_and_si256(a, _mm256_set1_epi32(0x7FFFFF)), _mm256_set1_epi32(0x800000));
  const __m256i shift = _mm256_min_epi32(_mm256_sub_epi32(k.subnormal_base, _mm256_srli_epi32(a, 23)),
                                         _mm256_set1_epi32(25));
  return round_shift_even(significand, shift);
}

LYNXSIM_SCALED_AVX2 inline __m256i fp8_codes(__m256 v, const Fp8Lanes& k) {
  const __m256i u = _mm256_castps_si256(v);
  const __m256i sign = _mm256_and_si256(_mm256_srli_epi32(u, 24), _mm256_set1_epi32(0x80));
  const __m256i a = _mm256_and_si256(u, _mm256_set1_epi32(0x7FFFFFFF));
  const __m256i odd = _mm256_and_si256(_mm256_srl_epi32(a, k.drop), _mm256_set1_epi32(1));
  // Normal lanes: a − ((127 − bias) << 23) >= 2^23, so the rebiased sum stays positive; the others are blended away.
  __m256i magnitude = _mm256_srl_epi32(_mm256_add_epi32(_mm256_add_epi32(a, k.round_rebias), odd), k.drop);
  const __m256i below = _mm256_cmpgt_epi32(k.min_normal, a);
  if (!_mm256_testz_si256(below, below)) magnitude = _mm256_blendv_epi8(magnitude, subnormal_codes(a, k), below);
  return _mm256_or_si256(_mm256_min_epi32(magnitude, k.max_code), sign);
}

// Sixteen codes (0..255 in each lane) as sixteen bytes in element order.
LYNXSIM_SCALED_AVX2 inline void store16(__m256i lo, __m256i hi, std::uint8_t* out) {
  const __m256i words = _mm256_packus_epi32(lo, hi);  // per 128-bit lane: lo0-3 hi0-3 | lo4-7 hi4-7
  const __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_shuffle_epi32(bytes, _MM_SHUFFLE(3, 1, 2, 0)));
}

LYNXSIM_SCALED_AVX2 inline __m256i int8_codes(__m256 v) {
  const __m256 clamped = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(-128.0F)), _mm256_set1_ps(127.0F));
  return _mm256_and_si256(_mm256_cvtps_epi32(clamped), _mm256_set1_epi32(0xFF));
}

LYNXSIM_SCALED_AVX2 inline __m256i codes8(const float* x, __m256 s, ElementCode code, const Fp8Lanes& k) {
  const __m256 v = _mm256_div_ps(_mm256_loadu_ps(x), s);
  return code == ElementCode::int8 ? int8_codes(v) : fp8_codes(v, k);
}

LYNXSIM_SCALED_AVX2 void encode_avx2(const float* x, int n, float scale, ElementCode code, std::uint8_t* out) {
  const __m256 s = _mm256_set1_ps(scale);
  const Fp8Lanes k = fp8_lanes(code);
  int i = 0;
  for (; i + 16 <= n; i += 16) store16(codes8(x + i, s, code, k), codes8(x + i + 8, s, code, k), out + i);
  _mm256_zeroupper();
  encode_portable(x + i, n - i, scale, code, out + i);
}

LYNXSIM_SCALED_AVX2 inline __m256 fp8_values(__m256i c, ElementCode code) {
  const fp8_math::Fp8Layout f = fp8_math::fp8_layout(code);
  const __m256i sign = _mm256_slli_epi32(_mm256_and_si256(c, _mm256_set1_epi32(0x80)), 24);
  const __m256i magnitude = _mm256_and_si256(c, _mm256_set1_epi32(0x7F));
  const __m256i placed = _mm256_sll_epi32(magnitude, _mm_cvtsi32_si128(23 - f.mantissa_bits));
  const __m256 power = _mm256_castsi256_ps(_mm256_set1_epi32((127 + 127 - f.bias) << 23));
  const __m256 value = _mm256_mul_ps(_mm256_castsi256_ps(_mm256_or_si256(sign, placed)), power);
  const int first_special = code == ElementCode::fp8_e5m2 ? 0x7C : 0x7F;
  const __m256i special = _mm256_cmpgt_epi32(magnitude, _mm256_set1_epi32(first_special - 1));
  const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(magnitude, _mm256_set1_epi32((1 << f.mantissa_bits) - 1)),
                                         _mm256_setzero_si256());
  const __m256i special_bits = _mm256_or_si256(_mm256_or_si256(sign, _mm256_set1_epi32(0x7F800000)),
                                               _mm256_and_si256(nan, _mm256_set1_epi32(0x400000)));
  return _mm256_blendv_ps(value, _mm256_castsi256_ps(special_bits), _mm256_castsi256_ps(special));
}

LYNXSIM_SCALED_AVX2 void decode_avx2(const std::uint8_t* codes, int n, float scale, ElementCode code, float* out) {
  const __m256 s = _mm256_set1_ps(scale);
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(codes + i));
    const __m256 v = code == ElementCode::int8 ? _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(bytes))
                                               : fp8_values(_mm256_cvtepu8_epi32(bytes), code);
    _mm256_storeu_ps(out + i, _mm256_mul_ps(v, s));
  }
  _mm256_zeroupper();
  decode_portable(codes + i, n - i, scale, code, out + i);
}

#endif

bool use_avx2(KernelIsa isa) {
#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
  return isa == KernelIsa::avx2;
#else
  (void)isa;
  return false;
#endif
}

}  // namespace

float amax(const float* x, int n, KernelIsa isa) {
#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
  if (use_avx2(isa)) return amax_avx2(x, n);
#endif
  return amax_portable(x, n);
}

void encode(const float* x, int n, float scale, ElementCode code, std::uint8_t* out, KernelIsa isa) {
#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
  if (use_avx2(isa)) return encode_avx2(x, n, scale, code, out);
#endif
  encode_portable(x, n, scale, code, out);
}

void decode(const std::uint8_t* codes, int n, float scale, ElementCode code, float* out, KernelIsa isa) {
#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
  if (use_avx2(isa)) return decode_avx2(codes, n, scale, code, out);
#endif
  decode_portable(codes, n, scale, code, out);
}

}  // namespace lynxsim::quant::scaled_rows
