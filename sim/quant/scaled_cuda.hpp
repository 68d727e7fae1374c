#pragma once
// The CUDA kernels of the scaled KV codes from plain C++ (quant_cuda.hpp's conventions): the same
// codes and scales as encode_scaled_reference, the same floats as decode_scaled_reference. Each call
// copies the block to the device and back. Without a device (cuda_available() false) they throw
// std::runtime_error.

#include "sim/quant/scaled_codec.hpp"

namespace lynxsim::quant {

ScaledBlock encode_scaled_cuda(BlockView input, const ScaledConfig& config);
void decode_scaled_cuda(const ScaledBlock& block, MutableBlockView output);

}  // namespace lynxsim::quant
