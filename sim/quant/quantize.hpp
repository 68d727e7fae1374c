#pragma once
// Group quantization of one KV block (equations in quant_config.hpp).
//
// Two implementations of the same arithmetic:
//   - *_reference: the oracle, written for clarity, one element at a time;
//   - *_fast: the optimized CPU kernel, whole groups at a time over contiguous arrays, with the group
//     parameters of many groups computed together; its inner loops (span_kernels.hpp) exist as
//     portable loops the compiler vectorizes (SSE2 baseline) and as AVX2 + F16C intrinsics, chosen
//     by the trailing KernelIsa argument (kernel_isa.hpp). The finiteness check rides along the
//     min/max pass.
// They agree bit-exactly on codes and metadata, and dequantized values agree to the last float bit
// (both compute q·s + m in float32 without contraction).
// Errors (std::invalid_argument): invalid config, NaN or infinity in the input (the message names the
// token and channel), a group whose scale or minimum does not fit fp16.

#include "sim/quant/kernel_isa.hpp"
#include "sim/quant/quantized_block.hpp"
#include "sim/quant/tensor_view.hpp"

namespace lynxsim::quant {

QuantizedBlock quantize_reference(BlockView input, const QuantConfig& config);
void dequantize_reference(const QuantizedBlock& block, MutableBlockView output);

QuantizedBlock quantize_fast(BlockView input, const QuantConfig& config, KernelIsa isa = best_kernel_isa());
void dequantize_fast(const QuantizedBlock& block, MutableBlockView output, KernelIsa isa = best_kernel_isa());

// Convenience: the fast dequantizer into a new [tokens][channels] vector.
std::vector<float> dequantize(const QuantizedBlock& block);

}  // namespace lynxsim::quant
