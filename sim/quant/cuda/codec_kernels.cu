// CUDA kernels of the plane codec (cuda_backend.hpp describes them and the host entry points).

#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/quant/codec_math.hpp"
#include "sim/quant/cuda/cuda_backend.hpp"

namespace lynxsim::quant::cuda_backend {
namespace {

namespace cm = lynxsim::quant::codec_math;

constexpr int kThreads = 256;
constexpr int kStatusMetadataOverflow = 1;

struct DeviceShape {
  int tokens;
  int channels;
  int bits;
  int per_channel;
  int group_size;
  int symmetric;
  int num_planes;
  int plane_bits[kMaxPlanes];
  int plane_shift[kMaxPlanes];
};

DeviceShape device_shape(const CodecShape& s) {
  DeviceShape d{s.tokens, s.channels, s.bits, s.per_channel ? 1 : 0, s.group_size, s.symmetric ? 1 : 0,
                s.num_planes, {}, {}};
  int shift = s.bits;
  for (int p = 0; p < s.num_planes; ++p) {
    shift -= s.plane_bits[p];
    d.plane_bits[p] = s.plane_bits[p];
    d.plane_shift[p] = shift;
  }
  return d;
}

__device__ long long group_of(const DeviceShape& s, int t, int c) {
  if (s.per_channel) {
    return static_cast<long long>(t / s.group_size) * s.channels + c;
  }
  const int groups_per_row = (s.channels + s.group_size - 1) / s.group_size;
  return static_cast<long long>(t) * groups_per_row + c / s.group_size;
}

__global__ void group_params_kernel(DeviceShape s, const float* x, long long num_groups, unsigned short* scales,
                                    unsigned short* mins, int* status) {
  const long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (g >= num_groups) {
    return;
  }
  int t0 = 0, t1 = 0, c0 = 0, c1 = 0;
  if (s.per_channel) {
    t0 = static_cast<int>(g / s.channels) * s.group_size;
    t1 = min(s.tokens, t0 + s.group_size);
    c0 = static_cast<int>(g % s.channels);
    c1 = c0 + 1;
  } else {
    const int groups_per_row = (s.channels + s.group_size - 1) / s.group_size;
    t0 = static_cast<int>(g / groups_per_row);
    t1 = t0 + 1;
    c0 = static_cast<int>(g % groups_per_row) * s.group_size;
    c1 = min(s.channels, c0 + s.group_size);
  }
  float lo = x[static_cast<long long>(t0) * s.channels + c0];
  float hi = lo;
  for (int t = t0; t < t1; ++t) {
    for (int c = c0; c < c1; ++c) {
      const float v = x[static_cast<long long>(t) * s.channels + c];
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
  }
  const cm::ParamBits p = cm::group_param_bits(lo, hi, s.bits, s.symmetric != 0);
  if (!p.scale_ok || !p.min_ok) {
    atomicOr(status, kStatusMetadataOverflow);
  }
  scales[g] = p.scale_bits;
  mins[g] = p.min_bits;
}

__global__ void quantize_kernel(DeviceShape s, const float* x, const unsigned short* scales,
                                const unsigned short* mins, unsigned char* codes) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<long long>(s.tokens) * s.channels) {
    return;
  }
  const long long g = group_of(s, static_cast<int>(i / s.channels), static_cast<int>(i % s.channels));
  const float scale = cm::from_fp16(scales[g]);
  const float min_value = cm::from_fp16(mins[g]);
  const float inv_scale = scale > 0.0F ? __fdiv_rn(1.0F, scale) : 0.0F;
  float v = __fmul_rn(__fsub_rn(x[i], min_value), inv_scale);
  v = v < 0.0F ? 0.0F : v;
  const float max_code = static_cast<float>((1 << s.bits) - 1);
  v = v > max_code ? max_code : v;
  codes[i] = static_cast<unsigned char>(__float2int_rn(v));
}

__global__ void pack_kernel(const unsigned char* codes, long long n, int bits, int shift, unsigned char* out,
                            long long out_bytes) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k >= out_bytes) {
    return;
  }
  const unsigned mask = (1U << bits) - 1U;
  const long long first_bit = k * 8;
  unsigned byte = 0;
  for (long long i = first_bit / bits; i < n && i * bits < first_bit + 8; ++i) {
    const unsigned value = (static_cast<unsigned>(codes[i]) >> shift) & mask;
    const long long offset = i * bits - first_bit;
    byte |= offset >= 0 ? (value << offset) : (value >> -offset);
  }
  out[k] = static_cast<unsigned char>(byte & 0xffU);
}

struct PlanePointers {
  const unsigned char* bytes[kMaxPlanes];
};

__global__ void decode_kernel(DeviceShape s, PlanePointers planes, int received, const unsigned short* scales,
                              const unsigned short* mins, float level_offset, float* out) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long n = static_cast<long long>(s.tokens) * s.channels;
  if (i >= n) {
    return;
  }
  unsigned code = 0;
  for (int p = 0; p < received; ++p) {
    const int bits = s.plane_bits[p];
    const long long bit = i * bits;
    const long long byte = bit / 8;
    const long long last_byte = (n * bits + 7) / 8 - 1;
    unsigned window = planes.bytes[p][byte];
    if (byte + 1 <= last_byte) {
      window |= static_cast<unsigned>(planes.bytes[p][byte + 1]) << 8;
    }
    code |= ((window >> (bit % 8)) & ((1U << bits) - 1U)) << s.plane_shift[p];
  }
  const long long g = group_of(s, static_cast<int>(i / s.channels), static_cast<int>(i % s.channels));
  const float level = __fadd_rn(static_cast<float>(code), level_offset);
  out[i] = __fadd_rn(__fmul_rn(level, cm::from_fp16(scales[g])), cm::from_fp16(mins[g]));
}

void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    throw std::runtime_error(std::string("CUDA kernels: ") + what + ": " + cudaGetErrorString(error));
  }
}

// Device memory owned for the duration of one host call.
class DeviceBuffer {
public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes_ > 0) {
      check(cudaMalloc(&data_, bytes_), "cudaMalloc");
    }
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (data_ != nullptr) {
      cudaFree(data_);
    }
  }
  template <typename T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  void upload(const void* host) { check(cudaMemcpy(data_, host, bytes_, cudaMemcpyHostToDevice), "upload"); }
  void download(void* host) const { check(cudaMemcpy(host, data_, bytes_, cudaMemcpyDeviceToHost), "download"); }

private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

unsigned grid_for(long long items) { return static_cast<unsigned>((items + kThreads - 1) / kThreads); }

std::size_t plane_bytes(const CodecShape& s, int plane) {
  const std::size_t n = static_cast<std::size_t>(s.tokens) * static_cast<std::size_t>(s.channels);
  return (n * static_cast<std::size_t>(s.plane_bits[plane]) + 7) / 8;
}

// Device buffers of one encode: codes, group metadata, the overflow flag, one packed buffer per plane.
struct EncodeBuffers {
  EncodeBuffers(const CodecShape& shape, long long n)
      : codes(static_cast<std::size_t>(n)),
        scales(shape.num_groups * sizeof(std::uint16_t)),
        mins(shape.num_groups * sizeof(std::uint16_t)),
        status(sizeof(int)) {
    for (int p = 0; p < shape.num_planes; ++p) {
      planes.push_back(std::make_unique<DeviceBuffer>(plane_bytes(shape, p)));
    }
  }
  DeviceBuffer codes;
  DeviceBuffer scales;
  DeviceBuffer mins;
  DeviceBuffer status;
  std::vector<std::unique_ptr<DeviceBuffer>> planes;
};

void launch_encode(const CodecShape& shape, const DeviceBuffer& x, EncodeBuffers& b) {
  const DeviceShape s = device_shape(shape);
  const long long n = static_cast<long long>(shape.tokens) * shape.channels;
  const auto groups = static_cast<long long>(shape.num_groups);
  check(cudaMemset(b.status.as<int>(), 0, sizeof(int)), "cudaMemset");
  group_params_kernel<<<grid_for(groups), kThreads>>>(s, x.as<float>(), groups, b.scales.as<unsigned short>(),
                                                      b.mins.as<unsigned short>(), b.status.as<int>());
  check(cudaGetLastError(), "group_params_kernel");
  quantize_kernel<<<grid_for(n), kThreads>>>(s, x.as<float>(), b.scales.as<unsigned short>(),
                                             b.mins.as<unsigned short>(), b.codes.as<unsigned char>());
  check(cudaGetLastError(), "quantize_kernel");
  for (int p = 0; p < shape.num_planes; ++p) {
    const auto out_bytes = static_cast<long long>(plane_bytes(shape, p));
    pack_kernel<<<grid_for(out_bytes), kThreads>>>(b.codes.as<unsigned char>(), n, s.plane_bits[p],
                                                   s.plane_shift[p],
                                                   b.planes[static_cast<std::size_t>(p)]->as<unsigned char>(),
                                                   out_bytes);
    check(cudaGetLastError(), "pack_kernel");
  }
}

void require_metadata_fits(const EncodeBuffers& b) {
  int flags = 0;
  b.status.download(&flags);
  if ((flags & kStatusMetadataOverflow) != 0) {
    throw std::invalid_argument("CUDA kernels: a group scale or minimum does not fit the fp16 metadata");
  }
}

void launch_decode(const CodecShape& shape, const PlanePointers& pointers, int planes_received,
                   const unsigned short* scales, const unsigned short* mins, float* out) {
  const long long n = static_cast<long long>(shape.tokens) * shape.channels;
  int kept_bits = 0;
  for (int p = 0; p < planes_received; ++p) {
    kept_bits += shape.plane_bits[p];
  }
  const float level_offset = static_cast<float>((1 << (shape.bits - kept_bits)) - 1) * 0.5F;
  decode_kernel<<<grid_for(n), kThreads>>>(device_shape(shape), pointers, planes_received, scales, mins,
                                           level_offset, out);
  check(cudaGetLastError(), "decode_kernel");
}

// Elapsed device time of the work a callable launches on the default stream.
class EventTimer {
public:
  EventTimer() {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  template <typename Launch>
  double seconds(Launch&& launch) {
    check(cudaEventRecord(start_), "cudaEventRecord");
    launch();
    check(cudaEventRecord(stop_), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0.0F;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return static_cast<double>(ms) * 1e-3;
  }

private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace

int device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

void encode(const CodecShape& shape, const float* input, std::uint16_t* scales, std::uint16_t* mins,
            std::uint8_t* const* plane_codes) {
  const long long n = static_cast<long long>(shape.tokens) * shape.channels;
  DeviceBuffer x(static_cast<std::size_t>(n) * sizeof(float));
  x.upload(input);
  EncodeBuffers b(shape, n);
  launch_encode(shape, x, b);
  for (int p = 0; p < shape.num_planes; ++p) {
    b.planes[static_cast<std::size_t>(p)]->download(plane_codes[p]);
  }
  require_metadata_fits(b);
  b.scales.download(scales);
  b.mins.download(mins);
}

void decode(const CodecShape& shape, const std::uint8_t* const* plane_codes, int planes_received,
            const std::uint16_t* scales, const std::uint16_t* mins, float* output) {
  const long long n = static_cast<long long>(shape.tokens) * shape.channels;
  DeviceBuffer d_scales(shape.num_groups * sizeof(std::uint16_t));
  DeviceBuffer d_mins(shape.num_groups * sizeof(std::uint16_t));
  DeviceBuffer out(static_cast<std::size_t>(n) * sizeof(float));
  d_scales.upload(scales);
  d_mins.upload(mins);
  PlanePointers pointers{};
  std::vector<std::unique_ptr<DeviceBuffer>> planes;
  for (int p = 0; p < planes_received; ++p) {
    planes.push_back(std::make_unique<DeviceBuffer>(plane_bytes(shape, p)));
    planes.back()->upload(plane_codes[p]);
    pointers.bytes[p] = planes.back()->as<const unsigned char>();
  }
  launch_decode(shape, pointers, planes_received, d_scales.as<unsigned short>(), d_mins.as<unsigned short>(),
                out.as<float>());
  out.download(output);
}

DeviceTimes time_kernels(const CodecShape& shape, const float* input, int rounds) {
  const long long n = static_cast<long long>(shape.tokens) * shape.channels;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  DeviceBuffer x(bytes);
  DeviceBuffer copy(bytes);
  DeviceBuffer out(bytes);
  x.upload(input);
  EncodeBuffers b(shape, n);
  PlanePointers pointers{};
  for (int p = 0; p < shape.num_planes; ++p) {
    pointers.bytes[p] = b.planes[static_cast<std::size_t>(p)]->as<const unsigned char>();
  }
  EventTimer timer;
  const double never = std::numeric_limits<double>::infinity();
  DeviceTimes best{never, never, never};
  for (int r = 0; r < rounds; ++r) {
    best.encode_s = std::min(best.encode_s, timer.seconds([&] { launch_encode(shape, x, b); }));
    best.decode_s = std::min(best.decode_s, timer.seconds([&] {
      launch_decode(shape, pointers, shape.num_planes, b.scales.as<unsigned short>(), b.mins.as<unsigned short>(),
                    out.as<float>());
    }));
    best.copy_s = std::min(best.copy_s, timer.seconds([&] {
      check(cudaMemcpy(copy.as<void>(), x.as<void>(), bytes, cudaMemcpyDeviceToDevice), "device copy");
    }));
  }
  require_metadata_fits(b);
  return best;
}

}  // namespace lynxsim::quant::cuda_backend
