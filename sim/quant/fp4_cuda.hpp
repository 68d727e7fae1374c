#pragma once
// The CUDA FP4 codec from plain C++: the same bytes and values as encode_fp4_reference /
// decode_fp4_reference (fp4_codec.hpp), through the kernels of sim/quant/cuda/fp4_kernels.cu. Each
// call copies the block to the device and back (a correctness and throughput tool). Without a
// device, or in a build without CUDA, they throw std::runtime_error (quant_cuda.hpp's
// cuda_available() tells beforehand); bad input throws std::invalid_argument as on the CPU.

#include <optional>

#include "sim/quant/fp4_codec.hpp"

namespace lynxsim::quant {

Fp4Encoded encode_fp4_cuda(BlockView input, Fp4Format format, std::optional<float> tensor_amax = std::nullopt);
void decode_fp4_cuda(const Fp4Encoded& encoded, MutableBlockView output);

}  // namespace lynxsim::quant
