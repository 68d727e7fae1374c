// Portable (SSE2 baseline) inner loops of span_kernels.hpp: plain loops over contiguous arrays with
// branch-free selects, which the compiler vectorizes without intrinsics. Rounding adds 1.5·2^23 and
// reads the code from the low byte of the sum: for 0 <= v <= 255 the sum lies in [2^23, 2^24), where
// the float grid step is 1, so the addition itself rounds v half-to-even.

#include <cstring>

#include "sim/quant/input_check.hpp"
#include "sim/quant/span_kernels.hpp"

namespace lynxsim::quant {
namespace {

constexpr float kRoundMagic = 12582912.0F;  // 1.5·2^23
constexpr std::size_t kLanes = 8;

inline std::uint8_t rounded_code(float v) {
  const float shifted = v + kRoundMagic;
  std::uint32_t bits = 0;
  std::memcpy(&bits, &shifted, sizeof bits);
  return static_cast<std::uint8_t>(bits & 0xffU);
}

inline float clamp_level(float v, float max_code) {
  v = v < 0.0F ? 0.0F : v;
  return v > max_code ? max_code : v;
}

// kLanes independent lanes keep the loop element-wise so that it vectorizes; it is kept rolled so
// that it is not turned into scalar code. The probe Σ x·0 is 0 when every x is finite, NaN otherwise.
bool extremes(const float* x, std::size_t n, float* lo_out, float* hi_out) {
  float l[kLanes];
  float h[kLanes];
  float z[kLanes];
  for (std::size_t k = 0; k < kLanes; ++k) {
    l[k] = x[0];
    h[k] = x[0];
    z[k] = 0.0F;
  }
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const float* chunk = x + i;
#pragma GCC unroll 1
    for (std::size_t k = 0; k < kLanes; ++k) {
      const float v = chunk[k];
      l[k] = v < l[k] ? v : l[k];
      h[k] = v > h[k] ? v : h[k];
      z[k] += v * 0.0F;
    }
  }
  for (; i < n; ++i) {
    l[0] = x[i] < l[0] ? x[i] : l[0];
    h[0] = x[i] > h[0] ? x[i] : h[0];
    z[0] += x[i] * 0.0F;
  }
  for (std::size_t k = 1; k < kLanes; ++k) {
    l[0] = l[k] < l[0] ? l[k] : l[0];
    h[0] = h[k] > h[0] ? h[k] : h[0];
    z[0] += z[k];
  }
  *lo_out = l[0];
  *hi_out = h[0];
  return z[0] == 0.0F;
}

bool extremes_update(const float* x, std::size_t n, float* lo, float* hi) {
  for (std::size_t i = 0; i < n; ++i) {
    lo[i] = x[i] < lo[i] ? x[i] : lo[i];
    hi[i] = x[i] > hi[i] ? x[i] : hi[i];
  }
  return all_finite(x, n);
}

void group_params(const float* lo, const float* hi, std::size_t n, const QuantConfig& config,
                  const GroupParamArrays& out) {
  for (std::size_t i = 0; i < n; ++i) {
    const GroupParams p = make_group_params(lo[i], hi[i], config);
    out.scale_bits[i] = p.scale_bits;
    out.min_bits[i] = p.min_bits;
    out.mins[i] = p.min;
    out.inv_scales[i] = p.inv_scale;
  }
}

void params_from_bits(const std::uint16_t* scale_bits, const std::uint16_t* min_bits, std::size_t n, float* scales,
                      float* mins) {
  for (std::size_t i = 0; i < n; ++i) {
    const GroupParams p = group_params_from_bits(scale_bits[i], min_bits[i]);
    scales[i] = p.scale;
    mins[i] = p.min;
  }
}

void quantize_span(const float* x, std::size_t n, float min, float inv_scale, float max_code, std::uint8_t* out) {
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = rounded_code(clamp_level((x[i] - min) * inv_scale, max_code));
  }
}

void quantize_span_per_channel(const float* x, std::size_t n, const float* mins, const float* inv_scales,
                               float max_code, std::uint8_t* out) {
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = rounded_code(clamp_level((x[i] - mins[i]) * inv_scales[i], max_code));
  }
}

void dequantize_span(const std::uint8_t* codes, std::size_t n, float offset, float scale, float min, float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = (static_cast<float>(codes[i]) + offset) * scale + min;
  }
}

void dequantize_span_per_channel(const std::uint8_t* codes, std::size_t n, float offset, const float* scales,
                                 const float* mins, float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = (static_cast<float>(codes[i]) + offset) * scales[i] + mins[i];
  }
}

std::size_t no_planes(const float* /*x*/, std::size_t /*n*/, float /*min*/, float /*inv_scale*/,
                      float /*max_code*/, const PlaneTargets& /*planes*/) {
  return 0;
}

std::size_t no_codes(const std::uint8_t* /*in*/, std::size_t /*n*/, int /*a*/, int /*b*/, std::uint8_t* /*out*/) {
  return 0;
}

bool extremes_groups(const float* x, std::size_t groups, std::size_t g, float* lo, float* hi) {
  bool finite = true;
  for (std::size_t j = 0; j < groups; ++j) {
    finite = extremes(x + j * g, g, lo + j, hi + j) && finite;
  }
  return finite;
}

std::size_t no_group_planes(const float* /*x*/, std::size_t /*groups*/, std::size_t /*g*/, const float* /*mins*/,
                            const float* /*inv_scales*/, float /*max_code*/, const PlaneTargets& /*planes*/,
                            bool /*stream*/) {
  return 0;
}

std::size_t no_group_values(const PlaneSources& /*planes*/, std::size_t /*groups*/, std::size_t /*g*/,
                            const float* /*scales*/, const float* /*mins*/, float /*offset*/, float* /*out*/,
                            bool /*stream*/) {
  return 0;
}

void no_fence() {}

}  // namespace

const SpanKernels& portable_span_kernels() {
  static const SpanKernels kernels{extremes,        extremes_update,
                                   group_params,    params_from_bits,
                                   quantize_span,   quantize_span_per_channel,
                                   no_planes,       dequantize_span,
                                   dequantize_span_per_channel,
                                   no_codes,        no_codes,
                                   extremes_groups, no_group_planes,
                                   no_group_values, no_fence};
  return kernels;
}

}  // namespace lynxsim::quant
