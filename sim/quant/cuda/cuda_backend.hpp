#pragma once
// Host entry points of the CUDA codec kernels, in plain C++ (no CUDA types), so that lynxsim_quant can
// call them whether or not CUDA was found: with CUDA they live in lynxsim_quant_cuda
// (sim/quant/cuda/*.cu); without it, sim/quant/cuda_backend_stub.cpp reports zero devices and throws.
//
// Kernels, all memory-bound and launched on the default stream (codec_device.cuh):
//   1. group parameters: per-token groups eight lanes each (coalesced reads, shuffle min/max),
//      per-channel groups one thread each; fp16 scale and minimum per group;
//   2. quantize+pack: one thread per eight elements quantizes them and writes their bits of every
//      plane (eight elements of w bits are exactly w bytes of a plane);
//   3. decode: one thread per eight elements reads their bytes of each received plane, merges the
//      bits and dequantizes (bucket middle when planes are missing).
// Per-token groups of g elements that tile the rows (g a multiple of 8) skip the per-element group
// walk: a chunk of eight lies in group i/g. When moreover g/8 is a power of two up to 32 (g = 8 ... 256,
// Lynx's 128 included), kernels 1 and 2 are one: the g/8 lanes of a group reduce its min and max by
// shuffles and quantize the floats they already hold, so an encode reads the input once, not twice.
// The arithmetic is codec_math.hpp's, evaluated without fused multiply-add, so codes and values are
// the CPU oracle's bits.

#include <cstddef>
#include <cstdint>

namespace lynxsim::quant::cuda_backend {

inline constexpr int kMaxPlanes = 8;

struct CodecShape {
  int tokens = 0;
  int channels = 0;
  int bits = 8;
  bool per_channel = false;
  int group_size = 128;
  bool symmetric = false;
  int num_planes = 1;
  int plane_bits[kMaxPlanes] = {8, 0, 0, 0, 0, 0, 0, 0};
  std::size_t num_groups = 0;
};

// Number of usable CUDA devices; 0 without a driver or a device (never throws).
int device_count() noexcept;

// input: tokens·channels floats (host). Outputs (host): scales and mins (num_groups each) and, per
// plane, the packed code bytes (ceil(n·w/8)). Throws std::runtime_error on a CUDA error and
// std::invalid_argument when a group's metadata overflows fp16 or the input is not finite.
void encode(const CodecShape& shape, const float* input, std::uint16_t* scales, std::uint16_t* mins,
            std::uint8_t* const* plane_codes);

// Decodes the first planes_received planes into output (tokens·channels floats, host).
void decode(const CodecShape& shape, const std::uint8_t* const* plane_codes, int planes_received,
            const std::uint16_t* scales, const std::uint16_t* mins, float* output);

// Device-resident timing for the benchmark: input is uploaded once, then each of `rounds` rounds
// times (CUDA events, default stream) one encode (its one or two kernels, every plane), one decode of
// every plane and one device-to-device copy of the float32 input. Best of the rounds, in seconds.
struct DeviceTimes {
  double encode_s = 0.0;
  double decode_s = 0.0;
  double copy_s = 0.0;
};
DeviceTimes time_kernels(const CodecShape& shape, const float* input, int rounds);

}  // namespace lynxsim::quant::cuda_backend
