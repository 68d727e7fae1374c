#pragma once
// The fused encode of uniform per-token groups (cuda_backend.hpp): group parameters and quantize+pack
// in one kernel, so the input is read once. Device helpers from codec_device.cuh; included by
// codec_kernels.cu only, after it.

#include "sim/quant/cuda/codec_device.cuh"

namespace lynxsim::quant::cuda_backend::device {

// Uniform per-token groups of at most 256 elements whose chunk count g/8 is a power of two: the
// g/8 consecutive lanes of a group (aligned within the warp) reduce their chunk's min and max by
// shuffles, derive the parameters and quantize the floats they hold, so x is read once. Every lane
// takes part in the shuffles, also past the end.
__global__ void fused_row_encode_kernel(DeviceShape s, const float* x, unsigned short* scales, unsigned short* mins,
                                        int* status, PlaneBytes planes) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long i0 = k * 8;
  const bool active = i0 < static_cast<long long>(s.tokens) * s.channels;
  float in[8] = {};
  if (active) {
    load_floats(x + i0, in, 8);
  }
  float lo = in[0];
  float hi = in[0];
  for (int j = 1; j < 8; ++j) {
    lo = in[j] < lo ? in[j] : lo;
    hi = in[j] > hi ? in[j] : hi;
  }
  for (int offset = s.uniform_group / 16; offset > 0; offset /= 2) {
    const float other_lo = __shfl_xor_sync(0xffffffffU, lo, offset);
    const float other_hi = __shfl_xor_sync(0xffffffffU, hi, offset);
    lo = other_lo < lo ? other_lo : lo;
    hi = other_hi > hi ? other_hi : hi;
  }
  if (!active) {
    return;
  }
  const cm::ParamBits bits = cm::group_param_bits(lo, hi, s.bits, s.symmetric != 0);
  if (i0 % s.uniform_group == 0) {
    const long long g = i0 / s.uniform_group;
    scales[g] = bits.scale_bits;
    mins[g] = bits.min_bits;
    if (!bits.scale_ok || !bits.min_ok) {
      atomicOr(status, kStatusMetadataOverflow);
    }
  }
  GroupParams params;
  params.set(bits.scale_bits, bits.min_bits);
  unsigned long long acc[kMaxPlanes] = {};
  for (int j = 0; j < 8; ++j) {
    add_code(s, params.code(s, in[j]), j, acc);
  }
  store_planes(s, planes, k, acc, 8);
}

__host__ __device__ inline bool fused_encode_applies(const DeviceShape& s) {
  const int lanes = s.uniform_group / 8;
  return s.uniform_group > 0 && lanes <= 32 && (lanes & (lanes - 1)) == 0;
}

}  // namespace lynxsim::quant::cuda_backend::device
