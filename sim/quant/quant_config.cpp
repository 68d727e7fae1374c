#include "sim/quant/quant_config.hpp"

#include <cmath>
#include <stdexcept>

#include "sim/quant/codec_math.hpp"
#include "sim/quant/half_precision.hpp"

namespace lynxsim::quant {
namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

[[noreturn]] void throw_metadata_overflow(const char* what, float near) {
  throw std::invalid_argument(std::string("quantization: group ") + what + " near " + std::to_string(near) +
                              " does not fit the fp16 metadata (|value| <= 65504)");
}

}  // namespace

void QuantConfig::validate() const {
  if (bits < 2 || bits > 8) {
    throw std::invalid_argument("quantization: bits must be in [2, 8], got " + std::to_string(bits));
  }
  if (group_size < 1) {
    throw std::invalid_argument("quantization: group_size must be >= 1, got " + std::to_string(group_size));
  }
}

std::string to_string(GroupAxis axis) { return axis == GroupAxis::per_token ? "per_token" : "per_channel"; }

GroupLayout::GroupLayout(const QuantConfig& config, int num_tokens, int num_channels)
    : axis(config.group_axis), group_size(config.group_size), tokens(num_tokens), channels(num_channels) {
  config.validate();
  if (num_tokens < 0 || num_channels < 0) {
    throw std::invalid_argument("quantization: negative block shape");
  }
  groups_per_row = ceil_div(num_channels, group_size);
  token_groups = ceil_div(num_tokens, group_size);
}

std::size_t GroupLayout::num_groups() const {
  if (axis == GroupAxis::per_token) {
    return static_cast<std::size_t>(tokens) * static_cast<std::size_t>(groups_per_row);
  }
  return static_cast<std::size_t>(token_groups) * static_cast<std::size_t>(channels);
}

GroupParams make_group_params(float lo, float hi, const QuantConfig& config) {
  const codec_math::ParamBits bits = codec_math::group_param_bits(lo, hi, config.bits, config.symmetric);
  if (!bits.min_ok) {
    throw_metadata_overflow("minimum", config.symmetric ? hi : lo);
  }
  if (!bits.scale_ok) {
    throw_metadata_overflow("scale", hi - lo);
  }
  return group_params_from_bits(bits.scale_bits, bits.min_bits);
}

GroupParams group_params_from_bits(std::uint16_t scale_bits, std::uint16_t min_bits) {
  GroupParams params;
  params.scale_bits = scale_bits;
  params.min_bits = min_bits;
  params.scale = fp16_to_float(scale_bits);
  params.min = fp16_to_float(min_bits);
  params.inv_scale = params.scale > 0.0F ? 1.0F / params.scale : 0.0F;
  return params;
}

}  // namespace lynxsim::quant
