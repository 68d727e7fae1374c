#include "sim/quant/quantspec.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sim/quant/quantize.hpp"

namespace lynxsim::quant {
namespace {

// Float32 parameters of the groups a span of one row uses: one entry (per-token groups, stride 0)
// or one per channel (per-channel groups, stride 1). Each group's fp16 bits are decoded once.
struct ParamColumns {
  std::vector<float> scale;
  std::vector<float> min;
  std::vector<float> lower_scale;
  std::vector<float> inv_lower;

  void resize(std::size_t n) {
    scale.resize(n);
    min.resize(n);
    lower_scale.resize(n);
    inv_lower.resize(n);
  }
  void set(std::size_t i, std::uint16_t scale_bits, std::uint16_t min_bits, int lower_bits) {
    const GroupParams upper = group_params_from_bits(scale_bits, min_bits);
    scale[i] = upper.scale;
    min[i] = upper.min;
    lower_scale[i] = std::ldexp(upper.scale, -lower_bits);
    inv_lower[i] = lower_scale[i] > 0.0F ? 1.0F / lower_scale[i] : 0.0F;
  }
};

using PerGroup = std::integral_constant<std::size_t, 0>;
using PerElement = std::integral_constant<std::size_t, 1>;

// Calls span(first_element, n, params, stride) over the block: per-token groups one group at a time,
// per-channel groups one row at a time with the parameters of its token group.
template <typename Span>
void visit_spans(const QuantSpecConfig& config, int tokens, int channels, const std::vector<std::uint16_t>& scales,
                 const std::vector<std::uint16_t>& mins, const Span& span) {
  const auto c = static_cast<std::size_t>(channels);
  const auto g = static_cast<std::size_t>(config.group_size);
  ParamColumns p;
  if (config.group_axis == GroupAxis::per_token) {
    p.resize(1);
    const std::size_t per_row = (c + g - 1) / g;
    for (std::size_t t = 0; t < static_cast<std::size_t>(tokens); ++t) {
      for (std::size_t j = 0; j < per_row; ++j) {
        p.set(0, scales[t * per_row + j], mins[t * per_row + j], config.lower_bits);
        span(t * c + j * g, std::min(g, c - j * g), p, PerGroup{});
      }
    }
    return;
  }
  p.resize(c);
  for (std::size_t t = 0; t < static_cast<std::size_t>(tokens); ++t) {
    if (t % g == 0) {
      for (std::size_t ch = 0; ch < c; ++ch) {
        p.set(ch, scales[(t / g) * c + ch], mins[(t / g) * c + ch], config.lower_bits);
      }
    }
    span(t * c, c, p, PerElement{});
  }
}

constexpr float kRoundMagic = 12582912.0F;  // 1.5·2^23: v + kRoundMagic rounds v half-to-even

// r = clamp(round((x − (a·s_u + m))·(1/s_l)), −h, h − 1) + h. Clamping to the integer bounds before
// rounding gives the same r and keeps |v| small enough for the magic-number rounding, whose low
// byte is r modulo 256.
template <std::size_t Stride>
void residual_span(const float* x, const std::uint8_t* upper, std::size_t n, const ParamColumns& p, int half,
                   std::uint8_t* lower) {
  const auto low = static_cast<float>(-half);
  const auto high = static_cast<float>(half - 1);
  const auto mask = static_cast<std::uint32_t>(2 * half - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const float anchor = static_cast<float>(upper[i]) * p.scale[i * Stride] + p.min[i * Stride];
    float v = (x[i] - anchor) * p.inv_lower[i * Stride];
    v = v < low ? low : v;
    v = v > high ? high : v;
    const float shifted = v + kRoundMagic;
    std::uint32_t bits = 0;
    std::memcpy(&bits, &shifted, sizeof bits);
    lower[i] = static_cast<std::uint8_t>((bits + static_cast<std::uint32_t>(half)) & mask);
  }
}

template <std::size_t Stride>
void value_span(const std::uint8_t* upper, const std::uint8_t* lower, std::size_t n, const ParamColumns& p, int half,
                float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    float value = static_cast<float>(upper[i]) * p.scale[i * Stride] + p.min[i * Stride];
    if (lower != nullptr) {
      value += static_cast<float>(static_cast<int>(lower[i]) - half) * p.lower_scale[i * Stride];
    }
    out[i] = value;
  }
}

}  // namespace

void QuantSpecConfig::validate() const {
  if (upper_bits < 2 || lower_bits < 1 || upper_bits + lower_bits > 8) {
    throw std::invalid_argument("quantspec: needs upper_bits >= 2, lower_bits >= 1 and a sum <= 8, got " +
                                std::to_string(upper_bits) + "+" + std::to_string(lower_bits));
  }
  upper_config().validate();
}

QuantConfig QuantSpecConfig::upper_config() const {
  return QuantConfig{upper_bits, group_axis, group_size, false};
}

QuantSpecBlock quantize_quantspec(BlockView input, const QuantSpecConfig& config, KernelIsa isa) {
  config.validate();
  QuantizedBlock anchor = quantize_fast(input, config.upper_config(), isa);
  QuantSpecBlock block{config,          input.tokens, input.channels, std::move(anchor.codes), {},
                       std::move(anchor.scales), std::move(anchor.mins)};
  block.lower.resize(input.size());
  const int half = 1 << (config.lower_bits - 1);
  const float* x = input.data.data();
  visit_spans(config, input.tokens, input.channels, block.scales, block.mins,
              [&](std::size_t first, std::size_t n, const ParamColumns& p, auto stride) {
                residual_span<decltype(stride)::value>(x + first, block.upper.data() + first, n, p, half,
                                                       block.lower.data() + first);
              });
  return block;
}

void dequantize_quantspec(const QuantSpecBlock& block, bool with_lower, MutableBlockView output) {
  if (output.tokens != block.tokens || output.channels != block.channels) {
    throw std::invalid_argument("quantspec: output view shape differs from the block");
  }
  const int half = 1 << (block.config.lower_bits - 1);
  float* out = output.data.data();
  visit_spans(block.config, block.tokens, block.channels, block.scales, block.mins,
              [&](std::size_t first, std::size_t n, const ParamColumns& p, auto stride) {
                const std::uint8_t* lower = with_lower ? block.lower.data() + first : nullptr;
                value_span<decltype(stride)::value>(block.upper.data() + first, lower, n, p, half, out + first);
              });
}

std::vector<float> dequantize_quantspec(const QuantSpecBlock& block, bool with_lower) {
  std::vector<float> out(block.upper.size());
  dequantize_quantspec(block, with_lower, MutableBlockView(out, block.tokens, block.channels));
  return out;
}

PlaneEncoded pack_quantspec(const QuantSpecBlock& block) {
  QuantizedBlock merged{block.config.upper_config(), block.tokens, block.channels, {}, block.scales, block.mins};
  merged.config.bits = block.config.upper_bits + block.config.lower_bits;
  merged.codes.resize(block.upper.size());
  for (std::size_t i = 0; i < merged.codes.size(); ++i) {
    merged.codes[i] = static_cast<std::uint8_t>((block.upper[i] << block.config.lower_bits) | block.lower[i]);
  }
  return pack_block(merged, PlaneSplit{{block.config.upper_bits, block.config.lower_bits}});
}

}  // namespace lynxsim::quant
