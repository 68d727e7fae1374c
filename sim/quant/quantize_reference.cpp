#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/quant/input_check.hpp"
#include "sim/quant/quantize.hpp"

namespace lynxsim::quant {
namespace {

struct GroupExtent {
  int token_begin = 0;
  int token_end = 0;
  int channel_begin = 0;
  int channel_end = 0;
};

GroupExtent extent_of(const GroupLayout& layout, std::size_t group) {
  GroupExtent e;
  const int g = layout.group_size;
  if (layout.axis == GroupAxis::per_token) {
    e.token_begin = static_cast<int>(group / static_cast<std::size_t>(layout.groups_per_row));
    e.token_end = e.token_begin + 1;
    e.channel_begin = static_cast<int>(group % static_cast<std::size_t>(layout.groups_per_row)) * g;
    e.channel_end = std::min(layout.channels, e.channel_begin + g);
  } else {
    e.token_begin = static_cast<int>(group / static_cast<std::size_t>(layout.channels)) * g;
    e.token_end = std::min(layout.tokens, e.token_begin + g);
    e.channel_begin = static_cast<int>(group % static_cast<std::size_t>(layout.channels));
    e.channel_end = e.channel_begin + 1;
  }
  return e;
}

std::uint8_t quantize_value(float x, const GroupParams& p, int max_code) {
  float v = (x - p.min) * p.inv_scale;
  v = std::clamp(v, 0.0F, static_cast<float>(max_code));
  return static_cast<std::uint8_t>(std::nearbyint(v));
}

void check_output(const QuantizedBlock& block, MutableBlockView output) {
  if (output.tokens != block.tokens || output.channels != block.channels) {
    throw std::invalid_argument("dequantization: output view shape differs from the block");
  }
}

}  // namespace

QuantizedBlock quantize_reference(BlockView input, const QuantConfig& config) {
  config.validate();
  reject_non_finite(input, 0, input.tokens);
  QuantizedBlock block{config, input.tokens, input.channels, {}, {}, {}};
  const GroupLayout layout = block.layout();
  block.codes.assign(input.size(), 0);
  block.scales.resize(layout.num_groups());
  block.mins.resize(layout.num_groups());
  for (std::size_t g = 0; g < layout.num_groups(); ++g) {
    const GroupExtent e = extent_of(layout, g);
    float lo = input.at(e.token_begin, e.channel_begin);
    float hi = lo;
    for (int t = e.token_begin; t < e.token_end; ++t) {
      for (int c = e.channel_begin; c < e.channel_end; ++c) {
        lo = std::min(lo, input.at(t, c));
        hi = std::max(hi, input.at(t, c));
      }
    }
    const GroupParams params = make_group_params(lo, hi, config);
    block.scales[g] = params.scale_bits;
    block.mins[g] = params.min_bits;
    for (int t = e.token_begin; t < e.token_end; ++t) {
      for (int c = e.channel_begin; c < e.channel_end; ++c) {
        block.codes[static_cast<std::size_t>(t) * static_cast<std::size_t>(input.channels) +
                    static_cast<std::size_t>(c)] = quantize_value(input.at(t, c), params, config.max_code());
      }
    }
  }
  return block;
}

void dequantize_reference(const QuantizedBlock& block, MutableBlockView output) {
  check_output(block, output);
  const GroupLayout layout = block.layout();
  for (int t = 0; t < block.tokens; ++t) {
    for (int c = 0; c < block.channels; ++c) {
      const std::size_t g = layout.group_of(t, c);
      const GroupParams p = group_params_from_bits(block.scales[g], block.mins[g]);
      const std::uint8_t q = block.codes[static_cast<std::size_t>(t) * static_cast<std::size_t>(block.channels) +
                                         static_cast<std::size_t>(c)];
      output.at(t, c) = static_cast<float>(q) * p.scale + p.min;
    }
  }
}

std::vector<float> dequantize(const QuantizedBlock& block) {
  std::vector<float> out(static_cast<std::size_t>(block.tokens) * static_cast<std::size_t>(block.channels));
  dequantize_fast(block, MutableBlockView(out, block.tokens, block.channels));
  return out;
}

}  // namespace lynxsim::quant
