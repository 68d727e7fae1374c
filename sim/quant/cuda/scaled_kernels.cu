// CUDA kernels of the scaled KV codes and their host side (scaled_backend.hpp).

#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <memory>

#include "sim/quant/cuda/device_memory.cuh"
#include "sim/quant/cuda/scaled_backend.hpp"

namespace lynxsim::quant::cuda_backend {
namespace {

namespace fm = lynxsim::quant::fp8_math;

constexpr int kThreads = 256;
constexpr int kWarp = 32;

struct FreeDevice {
  void operator()(void* p) const { cudaFree(p); }
};
using DeviceMemory = std::unique_ptr<void, FreeDevice>;

DeviceMemory device_alloc(std::size_t bytes) {
  void* p = nullptr;
  check(cudaMalloc(&p, std::max<std::size_t>(bytes, 16)), "cudaMalloc");
  return DeviceMemory(p);
}

template <typename T>
T* at(const DeviceMemory& m) {
  return static_cast<T*>(m.get());
}

__device__ float scale_at(const float* scales, int per_token, long long i, int channels) {
  return per_token ? scales[i / channels] : scales[0];
}

__global__ void row_scales_kernel(const float* x, int tokens, int channels, ElementCode code, float* scales) {
  const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
  const int lane = static_cast<int>(threadIdx.x % kWarp);
  if (warp >= tokens) return;
  const float* row = x + warp * channels;
  float m = 0.0F;
  for (int c = lane; c < channels; c += kWarp) m = fmaxf(m, fabsf(row[c]));
  for (int offset = kWarp / 2; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xFFFFFFFFU, m, offset));
  if (lane == 0) scales[warp] = fm::scale_of_amax(m, code);
}

__global__ void encode_kernel(const float* x, long long n, int channels, const float* scales, int per_token,
                              ElementCode code, unsigned char* out) {
  const long long i = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * 4;
  if (i + 4 <= n) {
    const float4 v = reinterpret_cast<const float4*>(x)[i / 4];
    uchar4 c;
    c.x = fm::encode_element(v.x, scale_at(scales, per_token, i, channels), code);
    c.y = fm::encode_element(v.y, scale_at(scales, per_token, i + 1, channels), code);
    c.z = fm::encode_element(v.z, scale_at(scales, per_token, i + 2, channels), code);
    c.w = fm::encode_element(v.w, scale_at(scales, per_token, i + 3, channels), code);
    reinterpret_cast<uchar4*>(out)[i / 4] = c;
    return;
  }
  for (long long k = i; k < n; ++k) out[k] = fm::encode_element(x[k], scale_at(scales, per_token, k, channels), code);
}

__global__ void decode_kernel(const unsigned char* codes, long long n, int channels, const float* scales,
                              int per_token, ElementCode code, float* out) {
  const long long i = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * 4;
  if (i + 4 <= n) {
    const uchar4 c = reinterpret_cast<const uchar4*>(codes)[i / 4];
    float4 v;
    v.x = fm::decode_element(c.x, scale_at(scales, per_token, i, channels), code);
    v.y = fm::decode_element(c.y, scale_at(scales, per_token, i + 1, channels), code);
    v.z = fm::decode_element(c.z, scale_at(scales, per_token, i + 2, channels), code);
    v.w = fm::decode_element(c.w, scale_at(scales, per_token, i + 3, channels), code);
    reinterpret_cast<float4*>(out)[i / 4] = v;
    return;
  }
  for (long long k = i; k < n; ++k) out[k] = fm::decode_element(codes[k], scale_at(scales, per_token, k, channels), code);
}

long long elements(const ScaledShape& s) { return static_cast<long long>(s.tokens) * s.channels; }
unsigned quad_grid(long long n) { return static_cast<unsigned>((n + 4LL * kThreads - 1) / (4LL * kThreads)); }
std::size_t scale_count(const ScaledShape& s) { return s.per_token ? static_cast<std::size_t>(s.tokens) : 1U; }

void launch_encode(const ScaledShape& s, const float* x, float* scales, unsigned char* codes) {
  if (s.per_token) {
    const long long threads = static_cast<long long>(s.tokens) * kWarp;
    row_scales_kernel<<<static_cast<unsigned>((threads + kThreads - 1) / kThreads), kThreads>>>(x, s.tokens, s.channels,
                                                                                               s.code, scales);
    check(cudaGetLastError(), "row_scales_kernel");
  }
  encode_kernel<<<quad_grid(elements(s)), kThreads>>>(x, elements(s), s.channels, scales, s.per_token ? 1 : 0, s.code,
                                                      codes);
  check(cudaGetLastError(), "encode_kernel");
}

void launch_decode(const ScaledShape& s, const unsigned char* codes, const float* scales, float* out) {
  decode_kernel<<<quad_grid(elements(s)), kThreads>>>(codes, elements(s), s.channels, scales, s.per_token ? 1 : 0,
                                                      s.code, out);
  check(cudaGetLastError(), "decode_kernel");
}

}  // namespace

void scaled_encode(const ScaledShape& shape, const float* input, float* scales, std::uint8_t* codes) {
  const auto n = static_cast<std::size_t>(elements(shape));
  const DeviceMemory x = device_alloc(n * sizeof(float));
  const DeviceMemory s = device_alloc(scale_count(shape) * sizeof(float));
  const DeviceMemory c = device_alloc(n);
  check(cudaMemcpy(x.get(), input, n * sizeof(float), cudaMemcpyHostToDevice), "upload");
  if (!shape.per_token) check(cudaMemcpy(s.get(), scales, sizeof(float), cudaMemcpyHostToDevice), "upload");
  launch_encode(shape, at<float>(x), at<float>(s), at<unsigned char>(c));
  check(cudaMemcpy(codes, c.get(), n, cudaMemcpyDeviceToHost), "download");
  if (shape.per_token) check(cudaMemcpy(scales, s.get(), scale_count(shape) * sizeof(float), cudaMemcpyDeviceToHost), "download");
}

void scaled_decode(const ScaledShape& shape, const std::uint8_t* codes, const float* scales, float* output) {
  const auto n = static_cast<std::size_t>(elements(shape));
  const DeviceMemory c = device_alloc(n);
  const DeviceMemory s = device_alloc(scale_count(shape) * sizeof(float));
  const DeviceMemory out = device_alloc(n * sizeof(float));
  check(cudaMemcpy(c.get(), codes, n, cudaMemcpyHostToDevice), "upload");
  check(cudaMemcpy(s.get(), scales, scale_count(shape) * sizeof(float), cudaMemcpyHostToDevice), "upload");
  launch_decode(shape, at<unsigned char>(c), at<float>(s), at<float>(out));
  check(cudaMemcpy(output, out.get(), n * sizeof(float), cudaMemcpyDeviceToHost), "download");
}

DeviceTimes time_scaled_kernels(const ScaledShape& shape, const float* input, float tensor_scale, int rounds) {
  const auto n = static_cast<std::size_t>(elements(shape));
  const DeviceMemory x = device_alloc(n * sizeof(float));
  const DeviceMemory copy = device_alloc(n * sizeof(float));
  const DeviceMemory out = device_alloc(n * sizeof(float));
  const DeviceMemory c = device_alloc(n);
  const DeviceMemory s = device_alloc(scale_count(shape) * sizeof(float));
  check(cudaMemcpy(x.get(), input, n * sizeof(float), cudaMemcpyHostToDevice), "upload");
  check(cudaMemcpy(s.get(), &tensor_scale, sizeof(float), cudaMemcpyHostToDevice), "upload");
  EventTimer timer;
  const double never = std::numeric_limits<double>::infinity();
  DeviceTimes best{never, never, never};
  for (int r = 0; r < rounds; ++r) {
    best.encode_s = std::min(best.encode_s, timer.seconds([&] {
      launch_encode(shape, at<float>(x), at<float>(s), at<unsigned char>(c));
    }));
    best.decode_s = std::min(best.decode_s, timer.seconds([&] {
      launch_decode(shape, at<unsigned char>(c), at<float>(s), at<float>(out));
    }));
    best.copy_s = std::min(best.copy_s, timer.seconds([&] {
      check(cudaMemcpy(copy.get(), x.get(), n * sizeof(float), cudaMemcpyDeviceToDevice), "device copy");
    }));
  }
  return best;
}

}  // namespace lynxsim::quant::cuda_backend
