#pragma once
// Host entry points of the CUDA FP4 kernels (fp4_kernels.cu), in plain C++ (no CUDA types); without
// CUDA, sim/quant/fp4_cuda_stub.cpp reports the build and throws.
//
// Kernels, memory-bound, default stream, one thread per FP4 block (fp4_codec.hpp's formats):
//   1. amax (nvfp4 with its own tensor scale): grid-stride float4 reads, |x| bits reduced by warp
//      shuffles and one atomicMax per warp;
//   2. encode: the block's 16 or 32 floats as float4 loads, its amax, the scale byte and the
//      multiplier from fp4_math.hpp (s2 from the amax word or given), the E2M1 nibbles of x·m
//      (__fmul_rn) stored as one 8- or 16-byte word;
//   3. decode: the scale and the code word of a block, E2M1 value · scale (__fmul_rn), float4 stores.
// The arithmetic is fp4_math.hpp's, so the bytes and values are the CPU oracle's.

#include <cstddef>
#include <cstdint>

#include "sim/quant/cuda/cuda_backend.hpp"

namespace lynxsim::quant::cuda_backend {

struct Fp4Shape {
  bool nvfp4 = true;         // else mxfp4
  std::size_t blocks = 0;    // of 16 (nvfp4) or 32 (mxfp4) elements
  bool given_amax = false;   // nvfp4: tensor_amax replaces the measured amax
  float tensor_amax = 0.0F;
};

// input: blocks·B finite floats (host; the caller checks); scales: blocks bytes; codes: blocks·B/2
// bytes (host). Returns nvfp4's tensor scale s2 (1 for mxfp4).
float fp4_encode(const Fp4Shape& shape, const float* input, std::uint8_t* scales, std::uint8_t* codes);

void fp4_decode(const Fp4Shape& shape, float tensor_scale, const std::uint8_t* scales, const std::uint8_t* codes,
                float* output);

// Device-resident timing, best of `rounds`: encode (amax and encode kernels, or the encode kernel
// alone with a given amax), decode, and a device-to-device copy of the float32 input.
DeviceTimes fp4_time_kernels(const Fp4Shape& shape, const float* input, int rounds);

}  // namespace lynxsim::quant::cuda_backend
