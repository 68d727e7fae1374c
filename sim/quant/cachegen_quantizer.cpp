#include "sim/quant/cachegen_quantizer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/quant/cachegen_levels.hpp"
#include "sim/quant/half_precision.hpp"

namespace lynxsim::quant {
namespace {

constexpr float kFp16Max = 65504.0F;

float token_absmax(std::span<const float> row, std::size_t token) {
  float absmax = 0.0F;
  for (const float v : row) {
    if (!std::isfinite(v)) {
      throw std::invalid_argument("CacheGen: non-finite value in token " + std::to_string(token));
    }
    absmax = std::max(absmax, std::fabs(v));
  }
  if (absmax > kFp16Max) {
    throw std::invalid_argument("CacheGen: |x| exceeds the fp16 range in token " +
                                std::to_string(token));
  }
  return absmax;
}

// Exact for |v| < 2^28: a float plus 0.5 is exact in double, and the cast truncates toward zero.
int round_half_away(float v) {
  const double shifted = static_cast<double>(v) + (v < 0.0F ? -0.5 : 0.5);
  return static_cast<int>(shifted);
}

void check_group(const CacheGenCodes& codes, std::size_t group_tokens) {
  if (group_tokens == 0) throw std::invalid_argument("CacheGen: delta group must be >= 1 token");
  if (codes.codes.size() != codes.num_tokens * codes.num_channels) {
    throw std::invalid_argument("CacheGen: code array does not match its shape");
  }
}

}  // namespace

CacheGenCodes cachegen_quantize(std::span<const float> x, std::size_t num_tokens,
                                std::size_t num_channels, int bins) {
  if (x.size() != num_tokens * num_channels) {
    throw std::invalid_argument("CacheGen: tensor size does not match tokens x channels");
  }
  CacheGenCodes out;
  out.num_tokens = num_tokens;
  out.num_channels = num_channels;
  out.half_levels = cachegen_half_levels(bins);
  out.scales_fp16.resize(num_tokens);
  out.codes.resize(x.size());
  const auto h = static_cast<float>(out.half_levels);
  const int h_int = out.half_levels;
  for (std::size_t t = 0; t < num_tokens; ++t) {
    const auto row = x.subspan(t * num_channels, num_channels);
    out.scales_fp16[t] = float_to_fp16(token_absmax(row, t));
    const float absmax = fp16_to_float(out.scales_fp16[t]);
    const float factor = absmax > 0.0F ? h / absmax : 0.0F;
    std::int8_t* dst = out.codes.data() + t * num_channels;
    for (std::size_t c = 0; c < num_channels; ++c) {
      dst[c] = static_cast<std::int8_t>(std::clamp(round_half_away(row[c] * factor), -h_int, h_int));
    }
  }
  return out;
}

std::vector<float> cachegen_dequantize(const CacheGenCodes& codes) {
  std::vector<float> x(codes.codes.size());
  const auto h = static_cast<float>(codes.half_levels);
  for (std::size_t t = 0; t < codes.num_tokens; ++t) {
    const float step = fp16_to_float(codes.scales_fp16[t]) / h;
    const std::size_t base = t * codes.num_channels;
    for (std::size_t c = 0; c < codes.num_channels; ++c) {
      x[base + c] = static_cast<float>(codes.codes[base + c]) * step;
    }
  }
  return x;
}

void cachegen_delta_forward(CacheGenCodes& codes, std::size_t group_tokens) {
  check_group(codes, group_tokens);
  const std::size_t n = codes.num_channels;
  for (std::size_t t = 0; t < codes.num_tokens; ++t) {
    const std::size_t anchor = t - t % group_tokens;
    if (anchor == t) continue;
    for (std::size_t c = 0; c < n; ++c) {
      codes.codes[t * n + c] = static_cast<std::int8_t>(codes.codes[t * n + c] -
                                                        codes.codes[anchor * n + c]);
    }
  }
}

void cachegen_delta_inverse(CacheGenCodes& codes, std::size_t group_tokens) {
  check_group(codes, group_tokens);
  const std::size_t n = codes.num_channels;
  for (std::size_t t = 0; t < codes.num_tokens; ++t) {
    const std::size_t anchor = t - t % group_tokens;
    if (anchor == t) continue;
    for (std::size_t c = 0; c < n; ++c) {
      codes.codes[t * n + c] = static_cast<std::int8_t>(codes.codes[t * n + c] +
                                                        codes.codes[anchor * n + c]);
    }
  }
}

}  // namespace lynxsim::quant
