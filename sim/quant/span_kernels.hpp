#pragma once
// The innermost loops of the optimized CPU kernels, as a table of functions with one portable and
// one AVX2 implementation (kernel_isa.hpp chooses). quantize_fast.cpp and bit_pack.cpp arrange the
// groups and rows; these functions see contiguous arrays only.
//
// Contracts shared by both implementations (equations in quant_config.hpp):
//   extremes:         lo/hi of x[0, n), n >= 1; returns false when some x is NaN, and may do so for
//                     an infinity (infinities also show in lo/hi, which the caller tests);
//   extremes_update:  lo[i] = min(lo[i], x[i]), hi[i] = max(hi[i], x[i]); false as for extremes;
//   group_params:     fp16 scale/min bits and float32 min and 1/s of n groups from their extremes,
//                     bit-identical to make_group_params (which also throws for metadata overflow);
//   params_from_bits: float32 scale and min of n groups from their fp16 bits;
//   quantize_*:       q = clamp(round_half_even((x − m)·(1/s)), 0, max_code);
//   dequantize_*:     x̂ = (q + offset)·s + m;
//   quantize_planes:  the codes of quantize_span written straight into planes: plane p receives
//                     (q >> shift_p) & (2^w_p − 1) packed as bit_pack.hpp lays it out, starting at
//                     planes.plane[p].bytes (whole bytes: the caller starts on a byte boundary of every
//                     plane); widths 1, 2, 4 and 8 only. Returns how many leading codes it handled (a
//                     multiple of 32, possibly 0); the caller finishes the rest;
//   pack_shifted / unpack_merge: the leading codes of bit_pack.hpp's fused plane kernels; they return
//                     how many codes they handled (a multiple of 8, so the rest starts on a byte),
//                     possibly 0, and the caller finishes the rest.
// Runs of `groups` equal groups of g consecutive elements (per-token groups that tile their rows; group
// j starts at element j·g of x, out and every plane):
//   extremes_groups:  extremes of each group into lo[j], hi[j]; false as for extremes;
//   quantize_groups_planes: quantize_planes of every group with (mins[j], inv_scales[j]); with
//                     `stream`, the planes take non-temporal stores where every plane starts on 16
//                     bytes, and store_fence must follow;
//   dequantize_groups_planes: x̂ = (q + offset)·scales[j] + mins[j] with q merged from the planes,
//                     q = Σ_p plane_p << shift_p (the planes received; missing low bits are zero);
//                     with `stream`, out takes non-temporal stores where it is 16-byte aligned, and
//                     store_fence must follow before other threads read it;
//                     both return how many groups they handled: all of them, or 0 when the ISA has no
//                     such loop or g is not a multiple of 32 or a width is not 1, 2, 4 or 8 (the
//                     caller then takes the per-group path);
//   store_fence:      orders earlier non-temporal stores before later stores (sfence; a no-op where
//                     nothing streams).
// Streaming stores skip the read-for-ownership of every output cache line: a decoder that writes a
// block too large to stay in the caches moves 4 bytes per float instead of 8 (an encoder b/8 instead
// of b/4), the choice glibc's memcpy makes above its non_temporal_threshold
// (sysdeps/x86/dl-cacheinfo.h).

#include <cstddef>
#include <cstdint>

#include "sim/quant/kernel_isa.hpp"
#include "sim/quant/quant_config.hpp"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define LYNXSIM_QUANT_AVX2_KERNELS 1
#endif

namespace lynxsim::quant {

struct GroupParamArrays {
  std::uint16_t* scale_bits = nullptr;
  std::uint16_t* min_bits = nullptr;
  float* mins = nullptr;
  float* inv_scales = nullptr;
};

// One plane of a code: `bytes` is where its packed codes start, `shift` and `bits` select the code's bits.
template <typename Byte>
struct BasicPlaneRef {
  Byte* bytes = nullptr;
  int shift = 0;
  int bits = 0;
};

template <typename Byte>
struct BasicPlaneRefs {
  BasicPlaneRef<Byte> plane[8];
  int count = 0;

  // The same planes advanced to the byte of code `element` (a multiple of 8).
  BasicPlaneRefs at(std::size_t element) const {
    BasicPlaneRefs moved = *this;
    for (int p = 0; p < count; ++p) {
      moved.plane[p].bytes += element * static_cast<std::size_t>(plane[p].bits) / 8;
    }
    return moved;
  }
};

using PlaneTarget = BasicPlaneRef<std::uint8_t>;
using PlaneTargets = BasicPlaneRefs<std::uint8_t>;
using PlaneSource = BasicPlaneRef<const std::uint8_t>;
using PlaneSources = BasicPlaneRefs<const std::uint8_t>;

struct SpanKernels {
  bool (*extremes)(const float* x, std::size_t n, float* lo, float* hi);
  bool (*extremes_update)(const float* x, std::size_t n, float* lo, float* hi);
  void (*group_params)(const float* lo, const float* hi, std::size_t n, const QuantConfig& config,
                       const GroupParamArrays& out);
  void (*params_from_bits)(const std::uint16_t* scale_bits, const std::uint16_t* min_bits, std::size_t n,
                           float* scales, float* mins);
  void (*quantize_span)(const float* x, std::size_t n, float min, float inv_scale, float max_code,
                        std::uint8_t* out);
  void (*quantize_span_per_channel)(const float* x, std::size_t n, const float* mins, const float* inv_scales,
                                    float max_code, std::uint8_t* out);
  std::size_t (*quantize_planes)(const float* x, std::size_t n, float min, float inv_scale, float max_code,
                                 const PlaneTargets& planes);
  void (*dequantize_span)(const std::uint8_t* codes, std::size_t n, float offset, float scale, float min,
                          float* out);
  void (*dequantize_span_per_channel)(const std::uint8_t* codes, std::size_t n, float offset, const float* scales,
                                      const float* mins, float* out);
  std::size_t (*pack_shifted)(const std::uint8_t* codes, std::size_t n, int shift, int bits, std::uint8_t* out);
  std::size_t (*unpack_merge)(const std::uint8_t* bytes, std::size_t n, int bits, int shift, std::uint8_t* codes);
  bool (*extremes_groups)(const float* x, std::size_t groups, std::size_t g, float* lo, float* hi);
  std::size_t (*quantize_groups_planes)(const float* x, std::size_t groups, std::size_t g, const float* mins,
                                        const float* inv_scales, float max_code, const PlaneTargets& planes,
                                        bool stream);
  std::size_t (*dequantize_groups_planes)(const PlaneSources& planes, std::size_t groups, std::size_t g,
                                          const float* scales, const float* mins, float offset, float* out,
                                          bool stream);
  void (*store_fence)();
};

const SpanKernels& portable_span_kernels();
#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
const SpanKernels& avx2_span_kernels();
bool cpu_has_avx2_kernels();
std::size_t pack_shifted_avx2(const std::uint8_t* codes, std::size_t n, int shift, int bits, std::uint8_t* out);
std::size_t unpack_merge_avx2(const std::uint8_t* bytes, std::size_t n, int bits, int shift, std::uint8_t* codes);
bool extremes_groups_avx2(const float* x, std::size_t groups, std::size_t g, float* lo, float* hi);
std::size_t quantize_groups_planes_avx2(const float* x, std::size_t groups, std::size_t g, const float* mins,
                                        const float* inv_scales, float max_code, const PlaneTargets& planes,
                                        bool stream);
std::size_t dequantize_groups_planes_avx2(const PlaneSources& planes, std::size_t groups, std::size_t g,
                                          const float* scales, const float* mins, float offset, float* out,
                                          bool stream);
void store_fence_avx2();
#endif

// The table of `isa` (kernel_isa.hpp); std::invalid_argument when this CPU or build lacks it.
const SpanKernels& span_kernels(KernelIsa isa);

}  // namespace lynxsim::quant
