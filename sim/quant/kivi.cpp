#include "sim/quant/kivi.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/quant/bit_pack.hpp"
#include "sim/quant/half_precision.hpp"
#include "sim/quant/quantize.hpp"

namespace lynxsim::quant {
namespace {

KiviTensor quantize_tensor(BlockView input, const QuantConfig& config, int quantized_tokens) {
  const std::size_t split_at = static_cast<std::size_t>(quantized_tokens) * static_cast<std::size_t>(input.channels);
  KiviTensor tensor;
  tensor.quantized = quantize_fast(BlockView(input.data.first(split_at), quantized_tokens, input.channels), config);
  tensor.recent = to_bf16(input.data.subspan(split_at));
  return tensor;
}

void dequantize_tensor(const KiviTensor& tensor, MutableBlockView output) {
  const QuantizedBlock& q = tensor.quantized;
  if (output.channels != q.channels || output.size() != q.codes.size() + tensor.recent.size()) {
    throw std::invalid_argument("kivi: output view shape differs from the block");
  }
  const std::size_t split_at = q.codes.size();
  dequantize_fast(q, MutableBlockView(output.data.first(split_at), q.tokens, q.channels));
  for (std::size_t i = 0; i < tensor.recent.size(); ++i) {
    output.data[split_at + i] = bf16_to_float(tensor.recent[i]);
  }
}

std::size_t tensor_bytes(const QuantConfig& config, int quantized_tokens, int tokens, int channels) {
  const std::size_t quantized = static_cast<std::size_t>(quantized_tokens) * static_cast<std::size_t>(channels);
  const std::size_t recent = static_cast<std::size_t>(tokens - quantized_tokens) * static_cast<std::size_t>(channels);
  return packed_bytes(quantized, config.bits) + 4 * GroupLayout(config, quantized_tokens, channels).num_groups() +
         2 * recent;
}

}  // namespace

void KiviConfig::validate() const {
  if (residual_tokens < 0) {
    throw std::invalid_argument("kivi: residual_tokens must be >= 0, got " + std::to_string(residual_tokens));
  }
  key_config().validate();
}

QuantConfig KiviConfig::key_config() const { return QuantConfig{bits, GroupAxis::per_channel, group_size, false}; }

QuantConfig KiviConfig::value_config() const { return QuantConfig{bits, GroupAxis::per_token, group_size, false}; }

int KiviConfig::quantized_tokens(int tokens) const {
  const int older = tokens - std::min(tokens, residual_tokens);
  return older - older % group_size;
}

KiviBlock quantize_kivi(BlockView keys, BlockView values, const KiviConfig& config) {
  config.validate();
  if (keys.tokens != values.tokens || keys.channels != values.channels) {
    throw std::invalid_argument("kivi: keys and values differ in shape");
  }
  const int quantized = config.quantized_tokens(keys.tokens);
  return KiviBlock{config, keys.tokens, keys.channels, quantize_tensor(keys, config.key_config(), quantized),
                   quantize_tensor(values, config.value_config(), quantized)};
}

void dequantize_kivi(const KiviBlock& block, MutableBlockView keys, MutableBlockView values) {
  dequantize_tensor(block.keys, keys);
  dequantize_tensor(block.values, values);
}

KiviBytes kivi_bytes(const KiviConfig& config, int tokens, int channels) {
  config.validate();
  const int quantized = config.quantized_tokens(tokens);
  return KiviBytes{tensor_bytes(config.key_config(), quantized, tokens, channels),
                   tensor_bytes(config.value_config(), quantized, tokens, channels)};
}

}  // namespace lynxsim::quant
