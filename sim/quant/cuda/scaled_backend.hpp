#pragma once
// Host entry points of the CUDA kernels of the scaled KV codes (scaled_codec.hpp), in plain C++ like
// cuda_backend.hpp: with CUDA they live in sim/quant/cuda/scaled_kernels.cu, without it
// sim/quant/scaled_cuda_stub.cpp throws.
//
// Kernels (memory-bound, default stream): per-token scales, one warp per row (lanes stride over the
// channels, a shuffle reduction of the absolute maximum, which is exact in any order); encode and
// decode, one thread per four elements (a float4 against four code bytes). The element arithmetic
// is fp8_math.hpp's, with IEEE division (nvcc's default -prec-div=true) and no fused multiply-add
// (there is no multiply-add to fuse), so codes and values are the CPU reference's bits.

#include <cstdint>

#include "sim/quant/cuda/cuda_backend.hpp"
#include "sim/quant/fp8_math.hpp"

namespace lynxsim::quant::cuda_backend {

struct ScaledShape {
  int tokens = 0;
  int channels = 0;
  ElementCode code = ElementCode::fp8_e4m3;
  bool per_token = false;
};

// input: tokens·channels floats (host). scales: per tensor, one float read (the given scale); per
// token, tokens floats written. codes: tokens·channels bytes written.
void scaled_encode(const ScaledShape& shape, const float* input, float* scales, std::uint8_t* codes);
void scaled_decode(const ScaledShape& shape, const std::uint8_t* codes, const float* scales, float* output);

// Device-resident timing (time_kernels' protocol): encode (with the per-token scale kernel when
// per_token) and decode of the whole block, and a device-to-device copy of the float32 input.
DeviceTimes time_scaled_kernels(const ScaledShape& shape, const float* input, float tensor_scale, int rounds);

}  // namespace lynxsim::quant::cuda_backend
