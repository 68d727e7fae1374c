#include "sim/quant/plane_codec.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "sim/quant/bit_pack.hpp"
#include "sim/quant/fast_kernels.hpp"
#include "sim/quant/quantize.hpp"

namespace lynxsim::quant {
namespace {

std::size_t element_count(int tokens, int channels) {
  return static_cast<std::size_t>(tokens) * static_cast<std::size_t>(channels);
}

void write_u16(std::vector<std::uint8_t>& out, std::size_t at, std::uint16_t value) {
  out[at] = static_cast<std::uint8_t>(value & 0xffU);
  out[at + 1] = static_cast<std::uint8_t>(value >> 8);
}

std::uint16_t read_u16(const std::vector<std::uint8_t>& in, std::size_t at) {
  return static_cast<std::uint16_t>(in[at] | (in[at + 1] << 8));
}

std::size_t metadata_bytes(const QuantConfig& config, int tokens, int channels) {
  return 4 * GroupLayout(config, tokens, channels).num_groups();
}

// A block whose float32 side is at least this large is written with non-temporal stores, decode's
// float32 output and encode's wire bytes alike: 1 MiB is the L2 cache of one AMD Zen 4 core (half of an
// Intel Sapphire Rapids core's 2 MiB), so the output of such a block has left the core's caches before
// anything reads it (the network card, the attention kernels), and a cached store would only add the
// read-for-ownership of every line; glibc's memcpy streams from a threshold of the same order
// (sysdeps/x86/dl-cacheinfo.h).
constexpr std::size_t kStreamingBlockBytes = std::size_t{1} << 20;

// Rows per chunk of the code-buffer paths: whole groups, and a multiple of 8 rows so every plane's chunk starts on a
// byte boundary.
int chunk_tokens(const QuantConfig& config) {
  if (config.group_axis == GroupAxis::per_token) {
    return 32;
  }
  return std::lcm(config.group_size, 8);
}

void check_encoded(const PlaneEncoded& encoded, int planes_needed) {
  const auto expected = encoded_bytes(encoded.config, encoded.split, encoded.tokens, encoded.channels);
  if (planes_needed < 1 || planes_needed > encoded.split.num_planes() ||
      static_cast<int>(encoded.planes.size()) < planes_needed) {
    throw std::invalid_argument("decode: " + std::to_string(planes_needed) + " planes requested, " +
                                std::to_string(encoded.planes.size()) + " present of " +
                                std::to_string(encoded.split.num_planes()));
  }
  for (int p = 0; p < planes_needed; ++p) {
    if (encoded.planes[static_cast<std::size_t>(p)].size() != expected[static_cast<std::size_t>(p)]) {
      throw std::invalid_argument("decode: plane " + std::to_string(p) + " has " +
                                  std::to_string(encoded.planes[static_cast<std::size_t>(p)].size()) +
                                  " bytes, expected " + std::to_string(expected[static_cast<std::size_t>(p)]));
    }
  }
}

// The first `count` planes of `encoded` as the kernels address them: where their codes start, shift, width.
template <typename Refs, typename Encoded>
Refs plane_refs(Encoded& encoded, int count) {
  Refs refs;
  refs.count = count;
  for (int p = 0; p < count; ++p) {
    refs.plane[p] = {encoded.planes[static_cast<std::size_t>(p)].data() + plane_code_offset(encoded, p),
                     encoded.split.shift_of(p), encoded.split.bits[static_cast<std::size_t>(p)]};
  }
  return refs;
}

QuantizedBlock metadata_block(const PlaneEncoded& encoded) {
  QuantizedBlock block{encoded.config, encoded.tokens, encoded.channels, {}, {}, {}};
  read_plane_metadata(encoded.planes.front(), block.layout().num_groups(), block.scales, block.mins);
  return block;
}

// Per-channel groups and plane widths other than 1, 2, 4, 8: quantize chunks of rows into a code
// buffer, then pack each plane from it.
void quantize_then_pack(BlockView input, const BlockMetadata& meta, const PlaneSplit& split, PlaneEncoded& encoded,
                        KernelIsa isa) {
  const int step = chunk_tokens(*meta.config);
  const auto channels = static_cast<std::size_t>(input.channels);
  std::vector<std::uint8_t> codes(static_cast<std::size_t>(step) * channels);
  for (int t0 = 0; t0 < input.tokens; t0 += step) {
    const int t1 = std::min(input.tokens, t0 + step);
    quantize_rows_fast(input, meta, t0, t1, codes.data(), isa);
    const std::size_t first = static_cast<std::size_t>(t0) * channels;
    const std::size_t count = static_cast<std::size_t>(t1 - t0) * channels;
    for (int p = 0; p < split.num_planes(); ++p) {
      const int bits = split.bits[static_cast<std::size_t>(p)];
      std::uint8_t* out = encoded.planes[static_cast<std::size_t>(p)].data() + plane_code_offset(encoded, p);
      pack_shifted_into(codes.data(), count, split.shift_of(p), bits, out + first * static_cast<std::size_t>(bits) / 8,
                        isa);
    }
  }
}

}  // namespace

void write_plane_metadata(std::span<const std::uint16_t> scales, std::span<const std::uint16_t> mins,
                          std::vector<std::uint8_t>& plane0) {
  const std::size_t groups = scales.size();
  for (std::size_t g = 0; g < groups; ++g) {
    write_u16(plane0, 2 * g, scales[g]);
    write_u16(plane0, 2 * (groups + g), mins[g]);
  }
}

void read_plane_metadata(const std::vector<std::uint8_t>& plane0, std::size_t groups,
                         std::vector<std::uint16_t>& scales, std::vector<std::uint16_t>& mins) {
  scales.resize(groups);
  mins.resize(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    scales[g] = read_u16(plane0, 2 * g);
    mins[g] = read_u16(plane0, 2 * (groups + g));
  }
}

std::size_t plane_code_offset(const PlaneEncoded& encoded, int plane) {
  return plane == 0 ? metadata_bytes(encoded.config, encoded.tokens, encoded.channels) : 0;
}

std::size_t PlaneEncoded::total_bytes() const {
  std::size_t total = 0;
  for (const auto& plane : planes) {
    total += plane.size();
  }
  return total;
}

std::vector<std::size_t> encoded_bytes(const QuantConfig& config, const PlaneSplit& split, int tokens,
                                       int channels) {
  split.validate(config.bits);
  std::vector<std::size_t> bytes;
  for (int b : split.bits) {
    bytes.push_back(packed_bytes(element_count(tokens, channels), b));
  }
  bytes.front() += metadata_bytes(config, tokens, channels);
  return bytes;
}

PlaneEncoded pack_block(const QuantizedBlock& block, const PlaneSplit& split) {
  PlaneEncoded encoded{block.config, split, block.tokens, block.channels, {}};
  const auto sizes = encoded_bytes(block.config, split, block.tokens, block.channels);
  const PlaneCodes planes = split_planes(block.codes, block.config.bits, split);
  for (std::size_t p = 0; p < planes.size(); ++p) {
    encoded.planes.emplace_back(sizes[p]);
    const std::size_t offset = plane_code_offset(encoded, static_cast<int>(p));
    pack_plane_into(planes[p], split.bits[p], std::span<std::uint8_t>(encoded.planes[p]).subspan(offset));
  }
  write_plane_metadata(block.scales, block.mins, encoded.planes.front());
  return encoded;
}

QuantizedBlock unpack_block(const PlaneEncoded& encoded) {
  check_encoded(encoded, encoded.split.num_planes());
  QuantizedBlock block = metadata_block(encoded);
  PlaneCodes planes;
  for (int p = 0; p < encoded.split.num_planes(); ++p) {
    const auto& bytes = encoded.planes[static_cast<std::size_t>(p)];
    planes.push_back(unpack_plane(std::span<const std::uint8_t>(bytes).subspan(plane_code_offset(encoded, p)),
                                  encoded.split.bits[static_cast<std::size_t>(p)],
                                  element_count(encoded.tokens, encoded.channels)));
  }
  block.codes = merge_planes(planes, encoded.split);
  return block;
}

PlaneEncoded encode_planes_reference(BlockView input, const QuantConfig& config, const PlaneSplit& split) {
  split.validate(config.bits);
  return pack_block(quantize_reference(input, config), split);
}

void decode_planes_reference(const PlaneEncoded& encoded, int planes_received, MutableBlockView output) {
  check_encoded(encoded, planes_received);
  if (planes_received == encoded.split.num_planes()) {
    dequantize_reference(unpack_block(encoded), output);
    return;
  }
  const QuantizedBlock block = metadata_block(encoded);
  PlaneCodes planes;
  for (int p = 0; p < planes_received; ++p) {
    const auto& bytes = encoded.planes[static_cast<std::size_t>(p)];
    planes.push_back(unpack_plane(std::span<const std::uint8_t>(bytes).subspan(plane_code_offset(encoded, p)),
                                  encoded.split.bits[static_cast<std::size_t>(p)],
                                  element_count(encoded.tokens, encoded.channels)));
  }
  reconstruct_from_planes(block, planes, encoded.split, planes_received, output);
}

PlaneEncoded encode_planes_fast(BlockView input, const QuantConfig& config, const PlaneSplit& split,
                                KernelIsa isa) {
  PlaneEncoded encoded;
  encode_planes_fast_into(input, config, split, encoded, isa);
  return encoded;
}

void encode_planes_fast_into(BlockView input, const QuantConfig& config, const PlaneSplit& split,
                             PlaneEncoded& encoded, KernelIsa isa) {
  const auto sizes = encoded_bytes(config, split, input.tokens, input.channels);
  encoded.config = config;
  encoded.split = split;
  encoded.tokens = input.tokens;
  encoded.channels = input.channels;
  encoded.planes.resize(sizes.size());
  for (std::size_t p = 0; p < sizes.size(); ++p) {
    encoded.planes[p].resize(sizes[p]);
  }
  const GroupLayout layout(config, input.tokens, input.channels);
  std::vector<std::uint16_t> scales(layout.num_groups());
  std::vector<std::uint16_t> mins(layout.num_groups());
  const BlockMetadata meta{&config, &layout, scales.data(), mins.data()};
  const auto targets = plane_refs<PlaneTargets>(encoded, split.num_planes());
  if (planes_on_byte_boundaries(config, input.channels, targets)) {
    const bool stream = input.size() * sizeof(float) >= kStreamingBlockBytes;
    quantize_rows_to_planes(input, meta, 0, input.tokens, targets, stream, isa);
  } else {
    quantize_then_pack(input, meta, split, encoded, isa);
  }
  write_plane_metadata(scales, mins, encoded.planes.front());
}

void decode_planes_fast(const PlaneEncoded& encoded, int planes_received, MutableBlockView output,
                        KernelIsa isa) {
  check_encoded(encoded, planes_received);
  if (output.tokens != encoded.tokens || output.channels != encoded.channels) {
    throw std::invalid_argument("decode: output view shape differs from the encoded block");
  }
  const QuantizedBlock block = metadata_block(encoded);
  const GroupLayout layout = block.layout();
  const ConstBlockMetadata meta{&block.config, &layout, block.scales.data(), block.mins.data()};
  const int dropped = block.config.bits - encoded.split.bits_in_first(planes_received);
  const float offset = static_cast<float>((1 << dropped) - 1) * 0.5F;
  const auto sources = plane_refs<PlaneSources>(encoded, planes_received);
  const bool stream = output.size() * sizeof(float) >= kStreamingBlockBytes;
  if (dequantize_rows_from_planes(sources, meta, 0, encoded.tokens, offset, output, stream, isa)) {
    return;
  }
  const int step = chunk_tokens(block.config);
  const auto channels = static_cast<std::size_t>(encoded.channels);
  std::vector<std::uint8_t> codes(static_cast<std::size_t>(step) * channels);
  for (int t0 = 0; t0 < encoded.tokens; t0 += step) {
    const int t1 = std::min(encoded.tokens, t0 + step);
    const std::size_t first = static_cast<std::size_t>(t0) * channels;
    const std::size_t count = static_cast<std::size_t>(t1 - t0) * channels;
    std::fill(codes.begin(), codes.begin() + static_cast<std::ptrdiff_t>(count), std::uint8_t{0});
    for (int p = 0; p < planes_received; ++p) {
      const PlaneSource& source = sources.plane[p];
      unpack_merge_into(source.bytes + first * static_cast<std::size_t>(source.bits) / 8, count, source.bits,
                        source.shift, codes.data(), isa);
    }
    dequantize_rows_fast(codes.data(), meta, t0, t1, offset, output, isa);
  }
}

}  // namespace lynxsim::quant
