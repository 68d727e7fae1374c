// AVX2 + F16C inner loops of span_kernels.hpp, 8 floats (or 32 codes) per step.
//
// Bit-exactness with the portable loops: the same float32 operations in the same order (sub, mul,
// clamp; convert, add, mul, add) and no fused multiply-add (the target enables neither FMA nor
// contraction across separately written intrinsics). Float-to-int conversion uses the current
// rounding mode, round-half-even by default, as the portable magic-number addition does. Group
// parameters convert with F16C's vcvtps2ph under an explicit round-to-nearest-even immediate, which
// equals codec_math::to_fp16 for every finite float (subnormal results included), and divide with
// correctly rounded vdivps as the scalar code does. A lane whose metadata overflows fp16 is redone by
// make_group_params, which throws the usual error.

#include "sim/quant/span_kernels.hpp"

#if defined(LYNXSIM_QUANT_AVX2_KERNELS)

#include <cpuid.h>

#include "sim/quant/avx2_codes.hpp"

#include <algorithm>
#include <cmath>

#define LYNXSIM_AVX2 __attribute__((target("avx2,f16c")))

namespace lynxsim::quant {
namespace {

LYNXSIM_AVX2 inline __m256 load8(const float* x) { return _mm256_loadu_ps(x); }

LYNXSIM_AVX2 inline float reduce_min(__m256 v) {
  __m128 m = _mm_min_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_min_ps(m, _mm_movehl_ps(m, m));
  m = _mm_min_ss(m, _mm_shuffle_ps(m, m, 1));
  return _mm_cvtss_f32(m);
}

LYNXSIM_AVX2 inline float reduce_max(__m256 v) {
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_max_ps(m, _mm_movehl_ps(m, m));
  m = _mm_max_ss(m, _mm_shuffle_ps(m, m, 1));
  return _mm_cvtss_f32(m);
}

LYNXSIM_AVX2 bool extremes_scalar(const float* x, std::size_t n, float* lo, float* hi) {
  float l = x[0];
  float h = x[0];
  bool nan = false;
  for (std::size_t i = 0; i < n; ++i) {
    l = x[i] < l ? x[i] : l;
    h = x[i] > h ? x[i] : h;
    nan = nan || std::isnan(x[i]);
  }
  *lo = l;
  *hi = h;
  return !nan;
}

// Lane-wise minimum and maximum of n >= 8 floats into lo and hi, NaN lanes ORed into nan. Min and max
// are idempotent, so the last (partial) step may overlap the previous one.
LYNXSIM_AVX2 inline void extreme_lanes(const float* x, std::size_t n, __m256& lo, __m256& hi, __m256& nan) {
  __m256 l0 = load8(x);
  __m256 h0 = l0;
  __m256 l1 = l0;
  __m256 h1 = l0;
  nan = _mm256_or_ps(nan, _mm256_cmp_ps(l0, l0, _CMP_UNORD_Q));
  std::size_t i = 8;
  for (; i + 16 <= n; i += 16) {
    const __m256 a = load8(x + i);
    const __m256 b = load8(x + i + 8);
    l0 = _mm256_min_ps(l0, a);
    h0 = _mm256_max_ps(h0, a);
    l1 = _mm256_min_ps(l1, b);
    h1 = _mm256_max_ps(h1, b);
    nan = _mm256_or_ps(nan, _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
  }
  for (; i < n; i += 8) {
    const __m256 a = load8(x + (i + 8 <= n ? i : n - 8));
    l0 = _mm256_min_ps(l0, a);
    h0 = _mm256_max_ps(h0, a);
    nan = _mm256_or_ps(nan, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
  }
  lo = _mm256_min_ps(l0, l1);
  hi = _mm256_max_ps(h0, h1);
}

LYNXSIM_AVX2 bool extremes(const float* x, std::size_t n, float* lo, float* hi) {
  if (n < 8) {
    return extremes_scalar(x, n, lo, hi);
  }
  __m256 l;
  __m256 h;
  __m256 nan = _mm256_setzero_ps();
  extreme_lanes(x, n, l, h, nan);
  *lo = reduce_min(l);
  *hi = reduce_max(h);
  return _mm256_movemask_ps(nan) == 0;
}

template <bool Max>
LYNXSIM_AVX2 inline __m256 pick(__m256 a, __m256 b) {
  return Max ? _mm256_max_ps(a, b) : _mm256_min_ps(a, b);
}

// Lane j of each 128-bit half: the extreme of that half of v[j], j = 0..3.
template <bool Max>
LYNXSIM_AVX2 inline __m256 across4(__m256 a, __m256 b, __m256 c, __m256 d) {
  const __m256 ab = pick<Max>(_mm256_unpacklo_ps(a, b), _mm256_unpackhi_ps(a, b));
  const __m256 cd = pick<Max>(_mm256_unpacklo_ps(c, d), _mm256_unpackhi_ps(c, d));
  return pick<Max>(_mm256_shuffle_ps(ab, cd, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(ab, cd, _MM_SHUFFLE(3, 2, 3, 2)));
}

// Lane j: the extreme of the eight lanes of v[j] (a transposing reduction of eight groups at once).
template <bool Max>
LYNXSIM_AVX2 inline __m256 across8(const __m256* v) {
  const __m256 first = across4<Max>(v[0], v[1], v[2], v[3]);
  const __m256 second = across4<Max>(v[4], v[5], v[6], v[7]);
  return pick<Max>(_mm256_permute2f128_ps(first, second, 0x20), _mm256_permute2f128_ps(first, second, 0x31));
}

// Floats read ahead of the group being reduced: 2 KiB, about what one core must have in flight to
// stream from DRAM (~100 ns latency × ~15 GB/s); the hardware prefetchers alone left a single-thread
// encode 15-20% slower (measured 256 to 768 floats ahead alike). A prefetch past the end of the input
// is harmless: prefetches do not fault.
constexpr std::size_t kPrefetchAhead = 512;

// Eight groups (fewer at the end: the last one repeated) per transposing reduction, prefetching
// kPrefetchAhead floats ahead.
LYNXSIM_AVX2 bool extremes_of_groups(const float* x, std::size_t groups, std::size_t g, float* lo, float* hi) {
  __m256 nan = _mm256_setzero_ps();
  for (std::size_t j = 0; j < groups; j += 8) {
    const std::size_t m = std::min<std::size_t>(8, groups - j);
    __m256 l[8];
    __m256 h[8];
    for (std::size_t k = 0; k < 8; ++k) {
      if (k < m) {
        const float* group = x + (j + k) * g;
        for (std::size_t b = 0; b < g; b += 16) {
          _mm_prefetch(reinterpret_cast<const char*>(group + b + kPrefetchAhead), _MM_HINT_T0);
        }
        extreme_lanes(group, g, l[k], h[k], nan);
      } else {
        l[k] = l[m - 1];
        h[k] = h[m - 1];
      }
    }
    float lo8[8];
    float hi8[8];
    _mm256_storeu_ps(lo8, across8<false>(l));
    _mm256_storeu_ps(hi8, across8<true>(h));
    std::copy(lo8, lo8 + m, lo + j);
    std::copy(hi8, hi8 + m, hi + j);
  }
  return _mm256_movemask_ps(nan) == 0;
}

}  // namespace

bool extremes_groups_avx2(const float* x, std::size_t groups, std::size_t g, float* lo, float* hi) {
  if (g >= 8) {
    return extremes_of_groups(x, groups, g, lo, hi);
  }
  bool finite = true;
  for (std::size_t j = 0; j < groups; ++j) {
    finite = extremes(x + j * g, g, lo + j, hi + j) && finite;
  }
  return finite;
}

namespace {

LYNXSIM_AVX2 bool extremes_update(const float* x, std::size_t n, float* lo, float* hi) {
  __m256 nan = _mm256_setzero_ps();
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 a = load8(x + i);
    _mm256_storeu_ps(lo + i, _mm256_min_ps(load8(lo + i), a));
    _mm256_storeu_ps(hi + i, _mm256_max_ps(load8(hi + i), a));
    nan = _mm256_or_ps(nan, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
  }
  bool any_nan = _mm256_movemask_ps(nan) != 0;
  for (; i < n; ++i) {
    lo[i] = x[i] < lo[i] ? x[i] : lo[i];
    hi[i] = x[i] > hi[i] ? x[i] : hi[i];
    any_nan = any_nan || std::isnan(x[i]);
  }
  return !any_nan;
}

LYNXSIM_AVX2 inline __m128i to_fp16(__m256 v) { return _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT); }

LYNXSIM_AVX2 inline bool fp16_all_finite(__m128i bits) {
  const __m128i exponent = _mm_set1_epi16(0x7c00);
  return _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(bits, exponent), exponent)) == 0;
}

struct ParamLanes {
  __m128i scale_bits;
  __m128i min_bits;
};

LYNXSIM_AVX2 inline ParamLanes asymmetric_lanes(__m256 lo, __m256 hi, int bits) {
  const __m256 zero = _mm256_setzero_ps();
  const __m128i min_bits = to_fp16(_mm256_add_ps(lo, zero));
  const __m256 range = _mm256_sub_ps(_mm256_add_ps(hi, zero), _mm256_cvtph_ps(min_bits));
  const __m256 step = _mm256_div_ps(range, _mm256_set1_ps(static_cast<float>((1 << bits) - 1)));
  return {to_fp16(_mm256_and_ps(step, _mm256_cmp_ps(range, zero, _CMP_GT_OQ))), min_bits};
}

LYNXSIM_AVX2 inline ParamLanes symmetric_lanes(__m256 lo, __m256 hi, int bits) {
  const __m256 zero = _mm256_setzero_ps();
  const __m256 sign = _mm256_set1_ps(-0.0F);
  const __m256 absmax = _mm256_max_ps(_mm256_andnot_ps(sign, _mm256_add_ps(lo, zero)),
                                      _mm256_andnot_ps(sign, _mm256_add_ps(hi, zero)));
  const __m128i scale_bits =
      to_fp16(_mm256_div_ps(absmax, _mm256_set1_ps(static_cast<float>((1 << (bits - 1)) - 1))));
  const __m256 min = _mm256_mul_ps(_mm256_set1_ps(-static_cast<float>(1 << (bits - 1))), _mm256_cvtph_ps(scale_bits));
  return {scale_bits, to_fp16(_mm256_add_ps(min, zero))};
}

void scalar_params(const float* lo, const float* hi, std::size_t begin, std::size_t end, const QuantConfig& config,
                   const GroupParamArrays& out) {
  for (std::size_t i = begin; i < end; ++i) {
    const GroupParams p = make_group_params(lo[i], hi[i], config);
    out.scale_bits[i] = p.scale_bits;
    out.min_bits[i] = p.min_bits;
    out.mins[i] = p.min;
    out.inv_scales[i] = p.inv_scale;
  }
}

LYNXSIM_AVX2 void group_params(const float* lo, const float* hi, std::size_t n, const QuantConfig& config,
                               const GroupParamArrays& out) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const ParamLanes p = config.symmetric ? symmetric_lanes(load8(lo + i), load8(hi + i), config.bits)
                                          : asymmetric_lanes(load8(lo + i), load8(hi + i), config.bits);
    if (!fp16_all_finite(p.scale_bits) || !fp16_all_finite(p.min_bits)) {
      scalar_params(lo, hi, i, i + 8, config, out);
      continue;
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out.scale_bits + i), p.scale_bits);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out.min_bits + i), p.min_bits);
    const __m256 scale = _mm256_cvtph_ps(p.scale_bits);
    const __m256 positive = _mm256_cmp_ps(scale, _mm256_setzero_ps(), _CMP_GT_OQ);
    _mm256_storeu_ps(out.mins + i, _mm256_cvtph_ps(p.min_bits));
    _mm256_storeu_ps(out.inv_scales + i, _mm256_and_ps(_mm256_div_ps(_mm256_set1_ps(1.0F), scale), positive));
  }
  scalar_params(lo, hi, i, n, config, out);
}

LYNXSIM_AVX2 void params_from_bits(const std::uint16_t* scale_bits, const std::uint16_t* min_bits, std::size_t n,
                                   float* scales, float* mins) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(scales + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(scale_bits + i))));
    _mm256_storeu_ps(mins + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(min_bits + i))));
  }
  for (; i < n; ++i) {
    const GroupParams p = group_params_from_bits(scale_bits[i], min_bits[i]);
    scales[i] = p.scale;
    mins[i] = p.min;
  }
}

using avx2::level_of;

LYNXSIM_AVX2 inline std::uint8_t code_scalar(float x, float min, float inv_scale, float max_code) {
  float v = (x - min) * inv_scale;
  v = v < 0.0F ? 0.0F : v;
  v = v > max_code ? max_code : v;
  return static_cast<std::uint8_t>(_mm_cvtss_si32(_mm_set_ss(v)));
}

LYNXSIM_AVX2 void quantize_span(const float* x, std::size_t n, float min, float inv_scale, float max_code,
                                std::uint8_t* out) {
  const __m256 vmin = _mm256_set1_ps(min);
  const __m256 vinv = _mm256_set1_ps(inv_scale);
  const __m256i vmax = avx2::code_limit(max_code);
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), avx2::codes32(x + i, vmin, vinv, vmax));
  }
  for (; i < n; ++i) {
    out[i] = code_scalar(x[i], min, inv_scale, max_code);
  }
}

LYNXSIM_AVX2 void quantize_span_per_channel(const float* x, std::size_t n, const float* mins, const float* inv_scales,
                                            float max_code, std::uint8_t* out) {
  const __m256i vmax = avx2::code_limit(max_code);
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i q[4];
    for (std::size_t k = 0; k < 4; ++k) {
      const std::size_t j = i + 8 * k;
      q[k] = level_of(load8(x + j), load8(mins + j), load8(inv_scales + j));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), avx2::bytes_of(q[0], q[1], q[2], q[3], vmax));
  }
  for (; i < n; ++i) {
    out[i] = code_scalar(x[i], mins[i], inv_scales[i], max_code);
  }
}

// The leading multiple of 32 as one group of planes_avx2.cpp's loop.
std::size_t quantize_planes(const float* x, std::size_t n, float min, float inv_scale, float max_code,
                            const PlaneTargets& planes) {
  const std::size_t body = n / 32 * 32;
  return body == 0 ? 0 : body * quantize_groups_planes_avx2(x, 1, body, &min, &inv_scale, max_code, planes, false);
}

LYNXSIM_AVX2 inline __m256 levels8(const std::uint8_t* codes, __m256 offset) {
  const __m256i q = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(codes)));
  return _mm256_add_ps(_mm256_cvtepi32_ps(q), offset);
}

LYNXSIM_AVX2 void dequantize_span(const std::uint8_t* codes, std::size_t n, float offset, float scale, float min,
                                  float* out) {
  const __m256 voff = _mm256_set1_ps(offset);
  const __m256 vscale = _mm256_set1_ps(scale);
  const __m256 vmin = _mm256_set1_ps(min);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(out + i, _mm256_add_ps(_mm256_mul_ps(levels8(codes + i, voff), vscale), vmin));
  }
  for (; i < n; ++i) {
    out[i] = (static_cast<float>(codes[i]) + offset) * scale + min;
  }
}

LYNXSIM_AVX2 void dequantize_span_per_channel(const std::uint8_t* codes, std::size_t n, float offset,
                                              const float* scales, const float* mins, float* out) {
  const __m256 voff = _mm256_set1_ps(offset);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(out + i, _mm256_add_ps(_mm256_mul_ps(levels8(codes + i, voff), load8(scales + i)), load8(mins + i)));
  }
  for (; i < n; ++i) {
    out[i] = (static_cast<float>(codes[i]) + offset) * scales[i] + mins[i];
  }
}

}  // namespace

// Asked once: cpuid is slow (a virtual machine traps it), and every kernel call checks its ISA.
bool cpu_has_avx2_kernels() {
  static const bool supported = [] {
    __builtin_cpu_init();
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
    return __builtin_cpu_supports("avx2") && f16c;
  }();
  return supported;
}

const SpanKernels& avx2_span_kernels() {
  static const SpanKernels kernels{extremes,
                                   extremes_update,
                                   group_params,
                                   params_from_bits,
                                   quantize_span,
                                   quantize_span_per_channel,
                                   quantize_planes,
                                   dequantize_span,
                                   dequantize_span_per_channel,
                                   pack_shifted_avx2,
                                   unpack_merge_avx2,
                                   extremes_groups_avx2,
                                   quantize_groups_planes_avx2,
                                   dequantize_groups_planes_avx2,
                                   store_fence_avx2};
  return kernels;
}

}  // namespace lynxsim::quant

#endif
