#pragma once
// The CUDA codec from plain C++ (no CUDA headers or types needed by callers).
//
// Same wire format and the same bits as encode_planes_fast / decode_planes_fast (plane_codec.hpp):
// the kernels in sim/quant/cuda/ share codec_math.hpp with the CPU kernels and avoid fused
// multiply-add. Each call copies the block to the device, runs the kernels and copies the result
// back; it is a correctness and throughput tool, not a resident GPU cache.
// cuda_available() is false when lynxsim was built without CUDA or when no device is present; the
// other functions then throw std::runtime_error.

#include "sim/quant/plane_codec.hpp"

namespace lynxsim::quant {

namespace cuda_backend {
struct CodecShape;
}

bool cuda_available();
int cuda_device_count();

PlaneEncoded encode_planes_cuda(BlockView input, const QuantConfig& config, const PlaneSplit& split);
void decode_planes_cuda(const PlaneEncoded& encoded, int planes_received, MutableBlockView output);

// The CUDA backend's description of a [tokens][channels] block (sim/quant/cuda/cuda_backend.hpp).
// Throws std::invalid_argument for an invalid split or more planes than the kernels take.
cuda_backend::CodecShape cuda_codec_shape(const QuantConfig& config, const PlaneSplit& split, int tokens,
                                          int channels);

}  // namespace lynxsim::quant
