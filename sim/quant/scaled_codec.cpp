#include "sim/quant/scaled_codec.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/quant/input_check.hpp"

namespace lynxsim::quant {
namespace {

std::size_t offset(int token, int channels) {
  return static_cast<std::size_t>(token) * static_cast<std::size_t>(channels);
}

float amax_reference(const float* x, std::size_t n) {
  float m = 0.0F;
  for (std::size_t i = 0; i < n; ++i) m = std::fabs(x[i]) > m ? std::fabs(x[i]) : m;
  return m;
}

void check_input(BlockView input, const ScaledConfig& config) {
  check_scaled_config(config);
  if (!all_finite(input.data.data(), input.size())) reject_non_finite(input, 0, input.tokens);
}

void check_output(const ScaledBlock& block, MutableBlockView output) {
  if (output.tokens != block.tokens || output.channels != block.channels) {
    throw std::invalid_argument("scaled decode: output view shape differs from the encoded block");
  }
  const std::size_t scales = block.config.scope == ScaleScope::per_token ? static_cast<std::size_t>(block.tokens) : 1U;
  if (block.codes.size() != output.size() || block.scales.size() != scales) {
    throw std::invalid_argument("scaled decode: the block's codes or scales have the wrong size");
  }
}

float scale_of_row(const ScaledBlock& block, int token) {
  return block.config.scope == ScaleScope::per_token ? block.scales[static_cast<std::size_t>(token)]
                                                     : block.scales.front();
}

void size_block(BlockView input, const ScaledConfig& config, ScaledBlock& out) {
  out.config = config;
  out.tokens = input.tokens;
  out.channels = input.channels;
  out.codes.resize(input.size());
  out.scales.assign(config.scope == ScaleScope::per_token ? static_cast<std::size_t>(input.tokens) : 1U,
                    config.tensor_scale);
}

// The kept bits with the dropped ones at their middle, at most the largest finite code (E4M3's
// S.1111.11 prefix holds only 448, its other code being NaN).
std::uint8_t anchor_code(std::uint8_t code, std::uint8_t keep, std::uint8_t middle, std::uint32_t max_code) {
  const std::uint32_t magnitude = static_cast<std::uint32_t>((code & keep) | middle) & 0x7FU;
  return static_cast<std::uint8_t>((code & 0x80U) | (magnitude > max_code ? max_code : magnitude));
}

}  // namespace

float amax_scale(BlockView block, ElementCode code) {
  return fp8_math::scale_of_amax(amax_reference(block.data.data(), block.size()), code);
}

void check_scaled_config(const ScaledConfig& config) {
  if (config.scope == ScaleScope::per_tensor && !(std::isfinite(config.tensor_scale) && config.tensor_scale > 0.0F)) {
    throw std::invalid_argument("scaled codec: the per-tensor scale must be a positive finite number, got " +
                                std::to_string(config.tensor_scale));
  }
}

ScaledBlock encode_scaled_reference(BlockView input, const ScaledConfig& config) {
  check_input(input, config);
  ScaledBlock out;
  size_block(input, config, out);
  const auto n = static_cast<std::size_t>(input.channels);
  for (int t = 0; t < input.tokens; ++t) {
    const float* row = input.row(t);
    if (config.scope == ScaleScope::per_token) {
      out.scales[static_cast<std::size_t>(t)] = fp8_math::scale_of_amax(amax_reference(row, n), config.code);
    }
    const float s = scale_of_row(out, t);
    for (std::size_t c = 0; c < n; ++c) {
      out.codes[offset(t, input.channels) + c] = fp8_math::encode_element(row[c], s, config.code);
    }
  }
  return out;
}

void decode_scaled_reference(const ScaledBlock& block, MutableBlockView output) {
  check_output(block, output);
  for (int t = 0; t < block.tokens; ++t) {
    const float s = scale_of_row(block, t);
    for (int c = 0; c < block.channels; ++c) {
      output.at(t, c) = fp8_math::decode_element(block.codes[offset(t, block.channels) + static_cast<std::size_t>(c)],
                                                 s, block.config.code);
    }
  }
}

void encode_scaled_fast_into(BlockView input, const ScaledConfig& config, ScaledBlock& out, KernelIsa isa) {
  check_input(input, config);
  size_block(input, config, out);
  for (int t = 0; t < input.tokens; ++t) {
    const float* row = input.row(t);
    if (config.scope == ScaleScope::per_token) {
      out.scales[static_cast<std::size_t>(t)] =
          fp8_math::scale_of_amax(scaled_rows::amax(row, input.channels, isa), config.code);
    }
    scaled_rows::encode(row, input.channels, scale_of_row(out, t), config.code,
                        out.codes.data() + offset(t, input.channels), isa);
  }
}

ScaledBlock encode_scaled_fast(BlockView input, const ScaledConfig& config, KernelIsa isa) {
  ScaledBlock out;
  encode_scaled_fast_into(input, config, out, isa);
  return out;
}

void decode_scaled_fast(const ScaledBlock& block, MutableBlockView output, KernelIsa isa) {
  check_output(block, output);
  for (int t = 0; t < block.tokens; ++t) {
    scaled_rows::decode(block.codes.data() + offset(t, block.channels), block.channels, scale_of_row(block, t),
                        block.config.code, output.row(t), isa);
  }
}

void decode_scaled_anchor(const ScaledBlock& block, int dropped_bits, MutableBlockView output) {
  check_output(block, output);
  if (block.config.code == ElementCode::int8 || dropped_bits < 1 ||
      dropped_bits > fp8_math::fp8_layout(block.config.code).mantissa_bits) {
    throw std::invalid_argument("scaled anchor: an FP8 anchor drops 1 to all of its mantissa bits, got " +
                                std::to_string(dropped_bits));
  }
  const auto keep = static_cast<std::uint8_t>(0xFFU << dropped_bits);
  const auto middle = static_cast<std::uint8_t>(1U << (dropped_bits - 1));
  const std::uint32_t max_code = fp8_math::fp8_layout(block.config.code).max_code;
  for (int t = 0; t < block.tokens; ++t) {
    const float s = scale_of_row(block, t);
    for (int c = 0; c < block.channels; ++c) {
      const std::uint8_t code = block.codes[offset(t, block.channels) + static_cast<std::size_t>(c)];
      output.at(t, c) = fp8_math::decode_element(anchor_code(code, keep, middle, max_code), s, block.config.code);
    }
  }
}

}  // namespace lynxsim::quant
