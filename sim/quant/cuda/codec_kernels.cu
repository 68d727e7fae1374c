// Host side of the CUDA plane codec: device buffers, kernel launches, the entry points of
// cuda_backend.hpp and the benchmark's device-resident timing.

#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/quant/cuda/codec_device.cuh"
#include "sim/quant/cuda/row_encode_device.cuh"
#include "sim/quant/cuda/cuda_backend.hpp"
#include "sim/quant/cuda/device_memory.cuh"

namespace lynxsim::quant::cuda_backend {
namespace {

using namespace device;

constexpr int kThreads = 256;

unsigned grid_for(long long items) { return static_cast<unsigned>((items + kThreads - 1) / kThreads); }

std::size_t plane_bytes(const CodecShape& s, int plane) {
  const std::size_t n = static_cast<std::size_t>(s.tokens) * static_cast<std::size_t>(s.channels);
  return (n * static_cast<std::size_t>(s.plane_bits[plane]) + 7) / 8;
}

// Device buffers of encodes: group metadata, the overflow flag (cleared once: it only ever gets set,
// and a set flag ends the buffers' use with an error), one packed buffer per plane.
struct EncodeBuffers {
  explicit EncodeBuffers(const CodecShape& shape)
      : scales(shape.num_groups * sizeof(std::uint16_t)),
        mins(shape.num_groups * sizeof(std::uint16_t)),
        status(sizeof(int)) {
    check(cudaMemset(status.as<int>(), 0, sizeof(int)), "cudaMemset");
    for (int p = 0; p < shape.num_planes; ++p) {
      planes.push_back(std::make_unique<DeviceBuffer>(plane_bytes(shape, p)));
    }
  }
  DeviceBuffer scales;
  DeviceBuffer mins;
  DeviceBuffer status;
  std::vector<std::unique_ptr<DeviceBuffer>> planes;
};

long long chunks_of(const CodecShape& shape) {
  return (static_cast<long long>(shape.tokens) * shape.channels + 7) / 8;
}

PlaneBytes plane_bytes_of(const CodecShape& shape, EncodeBuffers& b) {
  PlaneBytes planes{};
  for (int p = 0; p < shape.num_planes; ++p) {
    planes.bytes[p] = b.planes[static_cast<std::size_t>(p)]->as<unsigned char>();
  }
  return planes;
}

// One kernel where fused_encode_applies, else the group parameters and then quantize+pack.
void launch_encode(const CodecShape& shape, const DeviceBuffer& x, EncodeBuffers& b) {
  const DeviceShape s = device_shape(shape);
  const auto groups = static_cast<long long>(shape.num_groups);
  if (fused_encode_applies(s)) {
    fused_row_encode_kernel<<<grid_for(chunks_of(shape)), kThreads>>>(
        s, x.as<float>(), b.scales.as<unsigned short>(), b.mins.as<unsigned short>(), b.status.as<int>(),
        plane_bytes_of(shape, b));
    check(cudaGetLastError(), "fused_row_encode_kernel");
    return;
  }
  if (shape.per_channel) {
    column_params_kernel<<<grid_for(groups), kThreads>>>(s, x.as<float>(), groups, b.scales.as<unsigned short>(),
                                                         b.mins.as<unsigned short>(), b.status.as<int>());
  } else {
    row_params_kernel<<<grid_for(groups * kLanesPerGroup), kThreads>>>(s, x.as<float>(), groups, b.scales.as<unsigned short>(),
                                                           b.mins.as<unsigned short>(), b.status.as<int>());
  }
  check(cudaGetLastError(), "group parameter kernel");
  quantize_pack_kernel<<<grid_for(chunks_of(shape)), kThreads>>>(s, x.as<float>(), b.scales.as<unsigned short>(),
                                                                 b.mins.as<unsigned short>(), plane_bytes_of(shape, b));
  check(cudaGetLastError(), "quantize_pack_kernel");
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
  int kept_bits = 0;
  for (int p = 0; p < planes_received; ++p) {
    kept_bits += shape.plane_bits[p];
  }
  const float level_offset = static_cast<float>((1 << (shape.bits - kept_bits)) - 1) * 0.5F;
  decode_kernel<<<grid_for(chunks_of(shape)), kThreads>>>(device_shape(shape), pointers, planes_received, scales,
                                                          mins, level_offset, out);
  check(cudaGetLastError(), "decode_kernel");
}

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
  EncodeBuffers b(shape);
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
  EncodeBuffers b(shape);
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
