#include "sim/quant/scaled_cuda.hpp"

#include <stdexcept>

#include "sim/quant/cuda/scaled_backend.hpp"
#include "sim/quant/input_check.hpp"
#include "sim/quant/quant_cuda.hpp"

namespace lynxsim::quant {
namespace {

cuda_backend::ScaledShape shape_of(const ScaledConfig& config, int tokens, int channels) {
  return {tokens, channels, config.code, config.scope == ScaleScope::per_token};
}

void require_device() {
  if (!cuda_available()) throw std::runtime_error("CUDA scaled kernels: no CUDA device is available");
}

}  // namespace

ScaledBlock encode_scaled_cuda(BlockView input, const ScaledConfig& config) {
  check_scaled_config(config);
  if (!all_finite(input.data.data(), input.size())) reject_non_finite(input, 0, input.tokens);
  require_device();
  ScaledBlock out;
  out.config = config;
  out.tokens = input.tokens;
  out.channels = input.channels;
  out.codes.resize(input.size());
  out.scales.assign(config.scope == ScaleScope::per_token ? static_cast<std::size_t>(input.tokens) : 1U,
                    config.tensor_scale);
  if (!input.data.empty()) {
    cuda_backend::scaled_encode(shape_of(config, input.tokens, input.channels), input.data.data(), out.scales.data(),
                                out.codes.data());
  }
  return out;
}

void decode_scaled_cuda(const ScaledBlock& block, MutableBlockView output) {
  const std::size_t scales = block.config.scope == ScaleScope::per_token ? static_cast<std::size_t>(block.tokens) : 1U;
  if (output.tokens != block.tokens || output.channels != block.channels || block.codes.size() != output.size() ||
      block.scales.size() != scales) {
    throw std::invalid_argument("CUDA scaled decode: the block and the output view do not match");
  }
  require_device();
  if (!output.data.empty()) {
    cuda_backend::scaled_decode(shape_of(block.config, block.tokens, block.channels), block.codes.data(),
                                block.scales.data(), output.data.data());
  }
}

}  // namespace lynxsim::quant
