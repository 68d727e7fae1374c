// The CUDA FP4 kernels and their host side (fp4_backend.hpp).

#include <cuda_runtime.h>

#include <algorithm>
#include <limits>

#include "sim/quant/cuda/device_memory.cuh"
#include "sim/quant/cuda/fp4_backend.hpp"
#include "sim/quant/fp4_math.hpp"

namespace lynxsim::quant::cuda_backend {
namespace {

namespace fm = lynxsim::quant::fp4_math;

constexpr int kThreads = 256;

__device__ unsigned abs_bits(float x) { return __float_as_uint(x) & 0x7fffffffU; }

__device__ unsigned abs_max4(float4 v) {
  return max(max(abs_bits(v.x), abs_bits(v.y)), max(abs_bits(v.z), abs_bits(v.w)));
}

__global__ void amax_kernel(const float4* x, long long quads, unsigned* amax) {
  unsigned m = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < quads; i += stride) {
    m = max(m, abs_max4(x[i]));
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    m = max(m, __shfl_down_sync(0xffffffffU, m, offset));
  }
  if ((threadIdx.x & 31U) == 0) {
    atomicMax(amax, m);
  }
}

struct EncodeArgs {
  const float4* x;
  long long blocks;
  const unsigned* amax;  // nvfp4's measured tensor amax (bits), or null with a given scale
  float given_scale;
  unsigned char* scales;
  unsigned* codes;       // B/8 words per block
};

// B = 16: nvfp4, B = 32: mxfp4.
template <int B>
__global__ void encode_kernel(EncodeArgs a) {
  const long long b = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= a.blocks) {
    return;
  }
  float4 v[B / 4];
  unsigned m = 0;
  for (int k = 0; k < B / 4; ++k) {
    v[k] = a.x[b * (B / 4) + k];
    m = max(m, abs_max4(v[k]));
  }
  unsigned char code;
  float multiplier;
  if (B == 16) {
    const float s2 = a.amax != nullptr ? fm::nvfp4_tensor_scale(__uint_as_float(*a.amax)) : a.given_scale;
    const fm::Nvfp4Block block = fm::nvfp4_block(__uint_as_float(m), s2);
    code = block.code;
    multiplier = block.encode_multiplier;
  } else {
    code = fm::mxfp4_scale_code(m);
    multiplier = fm::mxfp4_encode_multiplier(code);
  }
  a.scales[b] = code;
  const float* f = reinterpret_cast<const float*>(v);
  for (int w = 0; w < B / 8; ++w) {
    unsigned word = 0;
    for (int j = 0; j < 8; ++j) {
      word |= static_cast<unsigned>(fm::e2m1_code(__fmul_rn(f[8 * w + j], multiplier))) << (4 * j);
    }
    a.codes[b * (B / 8) + w] = word;
  }
}

template <int B>
__global__ void decode_kernel(const unsigned char* scales, const unsigned* codes, long long blocks, float s2,
                              float4* out) {
  const long long b = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= blocks) {
    return;
  }
  const float scale = B == 16 ? __fmul_rn(fm::e4m3_value(scales[b]), s2) : fm::e8m0_value(scales[b]);
  for (int w = 0; w < B / 8; ++w) {
    const unsigned word = codes[b * (B / 8) + w];
    float v[8];
    for (int j = 0; j < 8; ++j) {
      v[j] = __fmul_rn(fm::e2m1_value(static_cast<unsigned char>((word >> (4 * j)) & 15U)), scale);
    }
    out[b * (B / 4) + 2 * w] = make_float4(v[0], v[1], v[2], v[3]);
    out[b * (B / 4) + 2 * w + 1] = make_float4(v[4], v[5], v[6], v[7]);
  }
}

unsigned grid_for(long long items) { return static_cast<unsigned>((items + kThreads - 1) / kThreads); }

int block_size(const Fp4Shape& s) { return s.nvfp4 ? 16 : 32; }

std::size_t elements(const Fp4Shape& s) { return s.blocks * static_cast<std::size_t>(block_size(s)); }

// Device buffers of one encode.
struct Fp4Buffers {
  explicit Fp4Buffers(const Fp4Shape& s)
      : x(elements(s) * sizeof(float)), scales(s.blocks), codes(elements(s) / 2), words(sizeof(unsigned)) {}
  DeviceBuffer x;
  DeviceBuffer scales;
  DeviceBuffer codes;
  DeviceBuffer words;  // the tensor amax
};

void launch_encode(const Fp4Shape& s, Fp4Buffers& d) {
  unsigned* words = d.words.as<unsigned>();
  check(cudaMemset(words, 0, sizeof(unsigned)), "cudaMemset");
  const auto blocks = static_cast<long long>(s.blocks);
  const bool measure = s.nvfp4 && !s.given_amax;
  if (measure) {
    const long long quads = static_cast<long long>(elements(s) / 4);
    amax_kernel<<<std::min<long long>(grid_for(quads), 4096), kThreads>>>(d.x.as<const float4>(), quads, words);
    check(cudaGetLastError(), "amax_kernel");
  }
  const EncodeArgs args{d.x.as<const float4>(), blocks, measure ? words : nullptr,
                        s.nvfp4 ? fm::nvfp4_tensor_scale(s.tensor_amax) : 1.0F,
                        d.scales.as<unsigned char>(), d.codes.as<unsigned>()};
  if (s.nvfp4) {
    encode_kernel<16><<<grid_for(blocks), kThreads>>>(args);
  } else {
    encode_kernel<32><<<grid_for(blocks), kThreads>>>(args);
  }
  check(cudaGetLastError(), "encode_kernel");
}

void launch_decode(const Fp4Shape& s, float tensor_scale, const DeviceBuffer& scales, const DeviceBuffer& codes,
                   DeviceBuffer& out) {
  const auto blocks = static_cast<long long>(s.blocks);
  if (s.nvfp4) {
    decode_kernel<16><<<grid_for(blocks), kThreads>>>(scales.as<const unsigned char>(), codes.as<const unsigned>(),
                                                      blocks, tensor_scale, out.as<float4>());
  } else {
    decode_kernel<32><<<grid_for(blocks), kThreads>>>(scales.as<const unsigned char>(), codes.as<const unsigned>(),
                                                      blocks, tensor_scale, out.as<float4>());
  }
  check(cudaGetLastError(), "decode_kernel");
}

}  // namespace

float fp4_encode(const Fp4Shape& shape, const float* input, std::uint8_t* scales, std::uint8_t* codes) {
  Fp4Buffers d(shape);
  d.x.upload(input);
  launch_encode(shape, d);
  unsigned amax_bits = 0;
  d.words.download(&amax_bits);
  d.scales.download(scales);
  d.codes.download(codes);
  if (!shape.nvfp4) {
    return 1.0F;
  }
  return fm::nvfp4_tensor_scale(shape.given_amax ? shape.tensor_amax : fm::cm::bits_float(amax_bits));
}

void fp4_decode(const Fp4Shape& shape, float tensor_scale, const std::uint8_t* scales, const std::uint8_t* codes,
                float* output) {
  DeviceBuffer d_scales(shape.blocks);
  DeviceBuffer d_codes(elements(shape) / 2);
  DeviceBuffer out(elements(shape) * sizeof(float));
  d_scales.upload(scales);
  d_codes.upload(codes);
  launch_decode(shape, tensor_scale, d_scales, d_codes, out);
  out.download(output);
}

DeviceTimes fp4_time_kernels(const Fp4Shape& shape, const float* input, int rounds) {
  Fp4Buffers d(shape);
  d.x.upload(input);
  DeviceBuffer copy(elements(shape) * sizeof(float));
  DeviceBuffer out(elements(shape) * sizeof(float));
  const float tensor_scale = fm::nvfp4_tensor_scale(shape.tensor_amax);
  EventTimer timer;
  const double never = std::numeric_limits<double>::infinity();
  DeviceTimes best{never, never, never};
  for (int r = 0; r < rounds; ++r) {
    best.encode_s = std::min(best.encode_s, timer.seconds([&] { launch_encode(shape, d); }));
    best.decode_s = std::min(best.decode_s, timer.seconds([&] { launch_decode(shape, tensor_scale, d.scales, d.codes, out); }));
    best.copy_s = std::min(best.copy_s, timer.seconds([&] {
      check(cudaMemcpy(copy.as<void>(), d.x.as<void>(), elements(shape) * sizeof(float), cudaMemcpyDeviceToDevice),
            "device copy");
    }));
  }
  return best;
}

}  // namespace lynxsim::quant::cuda_backend
