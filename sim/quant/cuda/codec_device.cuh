#pragma once
// Device code of the plane codec (cuda_backend.hpp describes the kernels; codec_kernels.cu launches
// them). Included by codec_kernels.cu only.
//
// Every element is quantized and dequantized with codec_math.hpp's arithmetic, without fused
// multiply-add, so codes and values are the CPU oracle's bits. The wire format is the CPU's: each
// plane holds its w bits of every element, least significant first; eight elements fill exactly w
// bytes, so one thread per chunk of eight elements reads or writes whole bytes and needs no
// neighbour's data.

#include "sim/quant/codec_math.hpp"
#include "sim/quant/cuda/cuda_backend.hpp"

namespace lynxsim::quant::cuda_backend::device {

namespace cm = lynxsim::quant::codec_math;

constexpr int kStatusMetadataOverflow = 1;

struct DeviceShape {
  int tokens;
  int channels;
  int bits;
  int per_channel;
  int group_size;
  int groups_per_row;
  int symmetric;
  int num_planes;
  int plane_bits[kMaxPlanes];
  int plane_shift[kMaxPlanes];
  int uniform_group;  // g when per-token groups of g, a multiple of 8, tile every row; else 0
};

int uniform_group_of(const CodecShape& s) {
  const int g = s.group_size < s.channels ? s.group_size : s.channels;
  return !s.per_channel && g > 0 && s.channels % g == 0 && g % 8 == 0 ? g : 0;
}

DeviceShape device_shape(const CodecShape& s) {
  DeviceShape d{s.tokens,   s.channels, s.bits, s.per_channel ? 1 : 0, s.group_size,
                (s.channels + s.group_size - 1) / s.group_size, s.symmetric ? 1 : 0, s.num_planes, {}, {},
                uniform_group_of(s)};
  int shift = s.bits;
  for (int p = 0; p < s.num_planes; ++p) {
    shift -= s.plane_bits[p];
    d.plane_bits[p] = s.plane_bits[p];
    d.plane_shift[p] = shift;
  }
  return d;
}

// Row, channel and group of an element, walked forward one element at a time without division.
// in_group is the position along the group's axis (channels per token, tokens per channel).
struct Cursor {
  int t;
  int c;
  int in_group;
  long long g;
};

__device__ Cursor cursor_at(const DeviceShape& s, long long i) {
  Cursor u{};
  u.t = static_cast<int>(i / s.channels);
  u.c = static_cast<int>(i - static_cast<long long>(u.t) * s.channels);
  if (s.per_channel) {
    u.in_group = u.t % s.group_size;
    u.g = static_cast<long long>(u.t / s.group_size) * s.channels + u.c;
  } else {
    u.in_group = u.c % s.group_size;
    u.g = static_cast<long long>(u.t) * s.groups_per_row + u.c / s.group_size;
  }
  return u;
}

__device__ void advance(const DeviceShape& s, Cursor& u) {
  const bool row_end = ++u.c == s.channels;
  if (!s.per_channel) {
    if (++u.in_group == s.group_size || row_end) {
      u.in_group = 0;
      ++u.g;
    }
  } else if (!row_end) {
    ++u.g;
  } else if (++u.in_group == s.group_size) {
    u.in_group = 0;
    ++u.g;
  } else {
    u.g += 1 - s.channels;
  }
  if (row_end) {
    u.c = 0;
    ++u.t;
  }
}

__device__ void write_params(const DeviceShape& s, long long g, float lo, float hi, unsigned short* scales,
                             unsigned short* mins, int* status) {
  const cm::ParamBits p = cm::group_param_bits(lo, hi, s.bits, s.symmetric != 0);
  if (!p.scale_ok || !p.min_ok) {
    atomicOr(status, kStatusMetadataOverflow);
  }
  scales[g] = p.scale_bits;
  mins[g] = p.min_bits;
}

// Per-channel groups: one thread per group walks its column (a warp reads adjacent channels).
__global__ void column_params_kernel(DeviceShape s, const float* x, long long num_groups, unsigned short* scales,
                                     unsigned short* mins, int* status) {
  const long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (g >= num_groups) {
    return;
  }
  const int t0 = static_cast<int>(g / s.channels) * s.group_size;
  const int t1 = min(s.tokens, t0 + s.group_size);
  const int c = static_cast<int>(g % s.channels);
  float lo = x[static_cast<long long>(t0) * s.channels + c];
  float hi = lo;
  for (int t = t0; t < t1; ++t) {
    const float v = x[static_cast<long long>(t) * s.channels + c];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  write_params(s, g, lo, hi, scales, mins, status);
}

// Per-token groups: kLanesPerGroup lanes per group read it coalesced and reduce min and max by
// shuffles within their lanes (min and max do not depend on the order; group_param_bits folds -0
// into +0). Every lane takes part in the shuffles, also past the last group.
constexpr int kLanesPerGroup = 8;

__global__ void row_params_kernel(DeviceShape s, const float* x, long long num_groups, unsigned short* scales,
                                  unsigned short* mins, int* status) {
  const long long g = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / kLanesPerGroup;
  const int lane = static_cast<int>(threadIdx.x % kLanesPerGroup);
  const bool active = g < num_groups;
  float lo = 0.0F;
  float hi = 0.0F;
  if (active) {
    const long long t = g / s.groups_per_row;
    const int c0 = static_cast<int>(g - t * s.groups_per_row) * s.group_size;
    const int c1 = min(s.channels, c0 + s.group_size);
    const float* row = x + t * s.channels;
    lo = row[c0];
    hi = lo;
    for (int c = c0 + lane; c < c1; c += kLanesPerGroup) {
      const float v = row[c];
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
  }
  for (int offset = kLanesPerGroup / 2; offset > 0; offset /= 2) {
    const float other_lo = __shfl_xor_sync(0xffffffffU, lo, offset);
    const float other_hi = __shfl_xor_sync(0xffffffffU, hi, offset);
    lo = other_lo < lo ? other_lo : lo;
    hi = other_hi > hi ? other_hi : hi;
  }
  if (active && lane == 0) {
    write_params(s, g, lo, hi, scales, mins, status);
  }
}

// A group's dequantization parameters and reciprocal scale, reloaded only when the group changes
// (a chunk of eight elements usually lies in one group).
struct GroupParams {
  long long group = -1;
  float scale = 0.0F;
  float min_value = 0.0F;
  float inv_scale = 0.0F;

  __device__ void load(long long g, const unsigned short* scales, const unsigned short* mins) {
    if (g != group) {
      group = g;
      set(scales[g], mins[g]);
    }
  }

  __device__ void set(unsigned short scale_bits, unsigned short min_bits) {
    scale = cm::from_fp16(scale_bits);
    min_value = cm::from_fp16(min_bits);
    inv_scale = scale > 0.0F ? __fdiv_rn(1.0F, scale) : 0.0F;
  }

  __device__ unsigned code(const DeviceShape& s, float x) const {
    float v = __fmul_rn(__fsub_rn(x, min_value), inv_scale);
    v = v < 0.0F ? 0.0F : v;
    const float max_code = static_cast<float>((1 << s.bits) - 1);
    v = v > max_code ? max_code : v;
    return static_cast<unsigned>(__float2int_rn(v));
  }

  __device__ float value(float level) const { return __fadd_rn(__fmul_rn(level, scale), min_value); }
};

struct PlaneBytes {
  unsigned char* bytes[kMaxPlanes];
};

struct PlanePointers {
  const unsigned char* bytes[kMaxPlanes];
};

// Eight elements of w bits fill exactly w bytes, so chunk k of a plane starts at byte k * w and
// holds its elements' bits least significant first (the CPU wire format). Full chunks of 1, 2, 4
// or 8 bytes move in one aligned access.
__device__ void store_chunk(unsigned char* dst, unsigned long long bits, int bytes, bool full) {
  if (full && bytes == 8) {
    *reinterpret_cast<unsigned long long*>(dst) = bits;
  } else if (full && bytes == 4) {
    *reinterpret_cast<unsigned*>(dst) = static_cast<unsigned>(bits);
  } else if (full && bytes == 2) {
    *reinterpret_cast<unsigned short*>(dst) = static_cast<unsigned short>(bits);
  } else {
    for (int b = 0; b < bytes; ++b) {
      dst[b] = static_cast<unsigned char>(bits >> (8 * b));
    }
  }
}

__device__ unsigned long long load_chunk(const unsigned char* src, int bytes, bool full) {
  if (full && bytes == 8) {
    return *reinterpret_cast<const unsigned long long*>(src);
  }
  if (full && bytes == 4) {
    return *reinterpret_cast<const unsigned*>(src);
  }
  if (full && bytes == 2) {
    return *reinterpret_cast<const unsigned short*>(src);
  }
  unsigned long long bits = 0;
  for (int b = 0; b < bytes; ++b) {
    bits |= static_cast<unsigned long long>(src[b]) << (8 * b);
  }
  return bits;
}

// Eight floats of a chunk (32-byte aligned when full: cudaMalloc aligns to 256 bytes) in two
// 16-byte accesses, so that a warp's accesses are contiguous.
__device__ void load_floats(const float* src, float* dst, int count) {
  if (count == 8) {
    const float4 a = reinterpret_cast<const float4*>(src)[0];
    const float4 b = reinterpret_cast<const float4*>(src)[1];
    dst[0] = a.x, dst[1] = a.y, dst[2] = a.z, dst[3] = a.w;
    dst[4] = b.x, dst[5] = b.y, dst[6] = b.z, dst[7] = b.w;
    return;
  }
  for (int j = 0; j < count; ++j) {
    dst[j] = src[j];
  }
}

__device__ void store_floats(float* dst, const float* src, int count) {
  if (count == 8) {
    reinterpret_cast<float4*>(dst)[0] = make_float4(src[0], src[1], src[2], src[3]);
    reinterpret_cast<float4*>(dst)[1] = make_float4(src[4], src[5], src[6], src[7]);
    return;
  }
  for (int j = 0; j < count; ++j) {
    dst[j] = src[j];
  }
}

// Element j's code into the chunk's bits of every plane.
__device__ inline void add_code(const DeviceShape& s, unsigned code, int j, unsigned long long* acc) {
#pragma unroll
  for (int p = 0; p < kMaxPlanes; ++p) {
    if (p < s.num_planes) {
      const unsigned value = (code >> s.plane_shift[p]) & ((1U << s.plane_bits[p]) - 1U);
      acc[p] |= static_cast<unsigned long long>(value) << (j * s.plane_bits[p]);
    }
  }
}

__device__ inline void store_planes(const DeviceShape& s, const PlaneBytes& planes, long long k,
                                    const unsigned long long* acc, int count) {
#pragma unroll
  for (int p = 0; p < kMaxPlanes; ++p) {
    if (p < s.num_planes) {
      const int w = s.plane_bits[p];
      store_chunk(planes.bytes[p] + k * w, acc[p], (count * w + 7) / 8, count == 8);
    }
  }
}

// One thread per chunk of eight elements: quantize them and write their bits of every plane.
__global__ void quantize_pack_kernel(DeviceShape s, const float* x, const unsigned short* scales,
                                     const unsigned short* mins, PlaneBytes planes) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long n = static_cast<long long>(s.tokens) * s.channels;
  const long long i0 = k * 8;
  if (i0 >= n) {
    return;
  }
  const int count = n - i0 < 8 ? static_cast<int>(n - i0) : 8;
  float in[8];
  load_floats(x + i0, in, count);
  unsigned long long acc[kMaxPlanes] = {};
  GroupParams params;
  if (s.uniform_group > 0) {
    params.load(i0 / s.uniform_group, scales, mins);
    for (int j = 0; j < count; ++j) {
      add_code(s, params.code(s, in[j]), j, acc);
    }
  } else {
    Cursor u = cursor_at(s, i0);
    for (int j = 0; j < count; ++j) {
      params.load(u.g, scales, mins);
      add_code(s, params.code(s, in[j]), j, acc);
      advance(s, u);
    }
  }
  store_planes(s, planes, k, acc, count);
}

// Element j's code merged from the received planes' bits of its chunk.
__device__ inline unsigned merged_code(const DeviceShape& s, const unsigned long long* acc, int received, int j) {
  unsigned code = 0;
#pragma unroll
  for (int p = 0; p < kMaxPlanes; ++p) {
    if (p < received) {
      const unsigned mask = (1U << s.plane_bits[p]) - 1U;
      code |= (static_cast<unsigned>(acc[p] >> (j * s.plane_bits[p])) & mask) << s.plane_shift[p];
    }
  }
  return code;
}

// One thread per chunk of eight elements: merge the received planes' bits and dequantize (bucket
// middle for the missing low bits, through level_offset).
__global__ void decode_kernel(DeviceShape s, PlanePointers planes, int received, const unsigned short* scales,
                              const unsigned short* mins, float level_offset, float* out) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long n = static_cast<long long>(s.tokens) * s.channels;
  const long long i0 = k * 8;
  if (i0 >= n) {
    return;
  }
  const int count = n - i0 < 8 ? static_cast<int>(n - i0) : 8;
  unsigned long long acc[kMaxPlanes] = {};
#pragma unroll
  for (int p = 0; p < kMaxPlanes; ++p) {
    if (p < received) {
      const int w = s.plane_bits[p];
      acc[p] = load_chunk(planes.bytes[p] + k * w, (count * w + 7) / 8, count == 8);
    }
  }
  GroupParams params;
  float values[8];
  if (s.uniform_group > 0) {
    params.load(i0 / s.uniform_group, scales, mins);
    for (int j = 0; j < count; ++j) {
      values[j] = params.value(__fadd_rn(static_cast<float>(merged_code(s, acc, received, j)), level_offset));
    }
  } else {
    Cursor u = cursor_at(s, i0);
    for (int j = 0; j < count; ++j) {
      params.load(u.g, scales, mins);
      values[j] = params.value(__fadd_rn(static_cast<float>(merged_code(s, acc, received, j)), level_offset));
      advance(s, u);
    }
  }
  store_floats(out + i0, values, count);
}

}  // namespace lynxsim::quant::cuda_backend::device
