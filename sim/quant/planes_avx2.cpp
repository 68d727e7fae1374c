// AVX2 loops over runs of equal per-token groups straight between float32 and bit planes
// (span_kernels.hpp: quantize_groups_planes, dequantize_groups_planes), 32 elements per step.
//
// Encode: avx2_codes.hpp's codes32 and pack_plane32 per plane, the group's (min, 1/s) broadcast once
// per group instead of once per call. Decode: the 32 codes of a step are merged in one register,
// q = Σ_p unpack_plane32<w_p>(plane p) << shift_p, and dequantized eight at a time with the operations
// and order of dequantize_span (convert, add offset, mul, add; no fused multiply-add), so the values
// are bit-identical to the unpack-merge-dequantize path. The one-plane 8-bit code, Lynx's 4+4 split
// and its 4-bit anchor alone have their own loops; other mixes of widths 1, 2, 4 and 8 dispatch per
// plane and step.
// Streaming stores move 16 bytes or less at a time (movntps, movntdq, movnti: 16-byte alignment is
// what a heap array guarantees; 32 is not), and only when the output, or every plane, starts on 16
// bytes; otherwise plain stores.

#include "sim/quant/span_kernels.hpp"

#if defined(LYNXSIM_QUANT_AVX2_KERNELS)

#include <cstdint>

#include "sim/quant/avx2_codes.hpp"

#define LYNXSIM_AVX2 __attribute__((target("avx2")))

namespace lynxsim::quant {
namespace {

bool widths_supported(const int* bits, int count) {
  for (int p = 0; p < count; ++p) {
    if (bits[p] != 1 && bits[p] != 2 && bits[p] != 4 && bits[p] != 8) {
      return false;
    }
  }
  return true;
}

template <bool Stream>
LYNXSIM_AVX2 inline void pack_any_plane(__m256i codes, const PlaneTarget& t, std::size_t e) {
  switch (t.bits) {
    case 1: avx2::pack_plane32<1, Stream>(codes, t.shift, t.bytes + e / 8); break;
    case 2: avx2::pack_plane32<2, Stream>(codes, t.shift, t.bytes + e / 4); break;
    case 4: avx2::pack_plane32<4, Stream>(codes, t.shift, t.bytes + e / 2); break;
    default: avx2::pack_plane32<8, Stream>(codes, t.shift, t.bytes + e); break;
  }
}

// Writers of the 32 codes of the step at element e into the planes: fixed widths (targets copied
// into locals, so the stores cannot alias them), the whole 8-bit code, and any widths.
template <bool Stream, int... Widths>
struct FixedPlanes {
  std::uint8_t* bytes[sizeof...(Widths)];
  int shift[sizeof...(Widths)];
  LYNXSIM_AVX2_INLINE void operator()(__m256i codes, std::size_t e) const {
    int p = 0;
    ((avx2::pack_plane32<Widths, Stream>(codes, shift[p], bytes[p] + e * Widths / 8), ++p), ...);
  }
};

// One plane of all 8 bits: shift 0, and the codes are the plane's bytes.
template <bool Stream>
struct WholeCodes {
  std::uint8_t* bytes;
  LYNXSIM_AVX2_INLINE void operator()(__m256i codes, std::size_t e) const { avx2::store32<Stream>(bytes + e, codes); }
};

template <bool Stream>
struct AnyTargets {
  const PlaneTargets* planes;
  LYNXSIM_AVX2_INLINE void operator()(__m256i codes, std::size_t e) const {
    for (int p = 0; p < planes->count; ++p) {
      pack_any_plane<Stream>(codes, planes->plane[p], e);
    }
  }
};

template <typename Pack>
LYNXSIM_AVX2 void quantize_groups_with(const Pack& pack, const float* x, std::size_t groups, std::size_t g,
                                       const float* mins, const float* inv_scales, float max_code) {
  const __m256i vmax = avx2::code_limit(max_code);
  for (std::size_t j = 0, e = 0; j < groups; ++j) {
    const __m256 vmin = _mm256_set1_ps(mins[j]);
    const __m256 vinv = _mm256_set1_ps(inv_scales[j]);
    for (const std::size_t end = e + g; e < end; e += 32) {
      pack(avx2::codes32(x + e, vmin, vinv, vmax), e);
    }
  }
}

template <int Bits>
LYNXSIM_AVX2 inline __m256i plane_field(const std::uint8_t* in, int shift, std::size_t e) {
  return _mm256_sll_epi16(avx2::unpack_plane32<Bits>(in + e * Bits / 8), _mm_cvtsi32_si128(shift));
}

LYNXSIM_AVX2 inline __m256i any_plane_field(const PlaneSource& s, std::size_t e) {
  switch (s.bits) {
    case 1: return plane_field<1>(s.bytes, s.shift, e);
    case 2: return plane_field<2>(s.bytes, s.shift, e);
    case 4: return plane_field<4>(s.bytes, s.shift, e);
    default: return plane_field<8>(s.bytes, s.shift, e);
  }
}

template <bool Stream>
LYNXSIM_AVX2 inline void store8(float* out, __m256 v) {
  if constexpr (Stream) {
    _mm_stream_ps(out, _mm256_castps256_ps128(v));
    _mm_stream_ps(out + 4, _mm256_extractf128_ps(v, 1));
  } else {
    _mm256_storeu_ps(out, v);
  }
}

template <bool Stream>
LYNXSIM_AVX2 inline void dequantize32(__m256i codes, __m256 offset, __m256 scale, __m256 min, float* out) {
  const __m128i halves[] = {_mm256_castsi256_si128(codes), _mm256_extracti128_si256(codes, 1)};
  for (int k = 0; k < 4; ++k) {
    const __m128i bytes = (k & 1) != 0 ? _mm_srli_si128(halves[k / 2], 8) : halves[k / 2];
    const __m256 level = _mm256_add_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes)), offset);
    store8<Stream>(out + 8 * k, _mm256_add_ps(_mm256_mul_ps(level, scale), min));
  }
}

// Merge(e) gives the 32 merged codes of the step at element e.
template <bool Stream, typename Merge>
LYNXSIM_AVX2 void dequantize_groups_with(const Merge& merge, std::size_t groups, std::size_t g, const float* scales,
                                         const float* mins, float offset, float* out) {
  const __m256 voff = _mm256_set1_ps(offset);
  for (std::size_t j = 0, e = 0; j < groups; ++j) {
    const __m256 vscale = _mm256_set1_ps(scales[j]);
    const __m256 vmin = _mm256_set1_ps(mins[j]);
    for (const std::size_t end = e + g; e < end; e += 32) {
      dequantize32<Stream>(merge(e), voff, vscale, vmin, out + e);
    }
  }
}

// The merged codes of one plane of width W, of two 4-bit planes, and of any planes.
template <int W>
struct OnePlane {
  PlaneSource a;
  LYNXSIM_AVX2_INLINE __m256i operator()(std::size_t e) const { return plane_field<W>(a.bytes, a.shift, e); }
};

struct NibblePlanes {
  PlaneSource a;
  PlaneSource b;
  LYNXSIM_AVX2_INLINE __m256i operator()(std::size_t e) const {
    return _mm256_or_si256(plane_field<4>(a.bytes, a.shift, e), plane_field<4>(b.bytes, b.shift, e));
  }
};

struct AnyPlanes {
  const PlaneSources* s;
  LYNXSIM_AVX2_INLINE __m256i operator()(std::size_t e) const {
    __m256i codes = _mm256_setzero_si256();
    for (int p = 0; p < s->count; ++p) {
      codes = _mm256_or_si256(codes, any_plane_field(s->plane[p], e));
    }
    return codes;
  }
};

template <bool Stream>
LYNXSIM_AVX2 void dequantize_groups(const PlaneSources& s, std::size_t groups, std::size_t g, const float* scales,
                                    const float* mins, float offset, float* out) {
  const PlaneSource& a = s.plane[0];
  if (s.count == 1 && a.bits == 8) {
    dequantize_groups_with<Stream>(OnePlane<8>{a}, groups, g, scales, mins, offset, out);
  } else if (s.count == 1 && a.bits == 4) {
    dequantize_groups_with<Stream>(OnePlane<4>{a}, groups, g, scales, mins, offset, out);
  } else if (s.count == 2 && a.bits == 4 && s.plane[1].bits == 4) {
    dequantize_groups_with<Stream>(NibblePlanes{a, s.plane[1]}, groups, g, scales, mins, offset, out);
  } else {
    dequantize_groups_with<Stream>(AnyPlanes{&s}, groups, g, scales, mins, offset, out);
  }
}

template <bool Stream>
LYNXSIM_AVX2 void quantize_groups(const float* x, std::size_t groups, std::size_t g, const float* mins,
                                  const float* inv_scales, float max_code, const PlaneTargets& planes) {
  const PlaneTarget& a = planes.plane[0];
  const PlaneTarget& b = planes.plane[1];
  if (planes.count == 1 && a.bits == 8) {
    quantize_groups_with(WholeCodes<Stream>{a.bytes}, x, groups, g, mins, inv_scales, max_code);
  } else if (planes.count == 2 && a.bits == 4 && b.bits == 4) {
    quantize_groups_with(FixedPlanes<Stream, 4, 4>{{a.bytes, b.bytes}, {a.shift, b.shift}}, x, groups, g, mins,
                         inv_scales, max_code);
  } else {
    quantize_groups_with(AnyTargets<Stream>{&planes}, x, groups, g, mins, inv_scales, max_code);
  }
}

bool aligned16(const PlaneTargets& planes) {
  for (int p = 0; p < planes.count; ++p) {
    if (reinterpret_cast<std::uintptr_t>(planes.plane[p].bytes) % 16 != 0) {
      return false;
    }
  }
  return true;
}

}  // namespace

LYNXSIM_AVX2 std::size_t quantize_groups_planes_avx2(const float* x, std::size_t groups, std::size_t g,
                                                     const float* mins, const float* inv_scales, float max_code,
                                                     const PlaneTargets& planes, bool stream) {
  int bits[8] = {};
  for (int p = 0; p < planes.count; ++p) {
    bits[p] = planes.plane[p].bits;
  }
  if (g % 32 != 0 || !widths_supported(bits, planes.count)) {
    return 0;
  }
  if (stream && aligned16(planes)) {
    quantize_groups<true>(x, groups, g, mins, inv_scales, max_code, planes);
  } else {
    quantize_groups<false>(x, groups, g, mins, inv_scales, max_code, planes);
  }
  return groups;
}

LYNXSIM_AVX2 std::size_t dequantize_groups_planes_avx2(const PlaneSources& planes, std::size_t groups,
                                                       std::size_t g, const float* scales, const float* mins,
                                                       float offset, float* out, bool stream) {
  int bits[8] = {};
  for (int p = 0; p < planes.count; ++p) {
    bits[p] = planes.plane[p].bits;
  }
  if (g % 32 != 0 || planes.count < 1 || !widths_supported(bits, planes.count)) {
    return 0;
  }
  if (stream && reinterpret_cast<std::uintptr_t>(out) % 16 == 0) {
    dequantize_groups<true>(planes, groups, g, scales, mins, offset, out);
  } else {
    dequantize_groups<false>(planes, groups, g, scales, mins, offset, out);
  }
  return groups;
}

void store_fence_avx2() { _mm_sfence(); }

}  // namespace lynxsim::quant

#endif
