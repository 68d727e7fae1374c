#pragma once
// The wire format of one KV block sent as bit planes, and the fused encode / decode kernels.
//
// encode = quantize + split into planes + pack each plane; decode = unpack + merge + dequantize.
// Plane 0 carries the group metadata, because every later plane needs it:
//   plane 0 = [scales: num_groups × fp16, little-endian][mins: num_groups × fp16][packed plane-0 codes]
//   plane i = [packed plane-i codes]                                                        (i >= 1)
// Byte counts are exact (bit_pack.hpp): plane i has ceil(T·C·w_i / 8) code bytes, plus 4·num_groups
// bytes in plane 0. For a single-plane split this is the plain b-bit transfer, and for any split of
// the same code the total differs from it only by the per-plane rounding up to whole bytes (zero
// whenever T·C·w_i is a multiple of 8), so Lynx reorders bytes without adding any.
// Decoding with k < n planes reconstructs at the bucket middle (planes.hpp).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/quant/kernel_isa.hpp"
#include "sim/quant/planes.hpp"
#include "sim/quant/quantized_block.hpp"
#include "sim/quant/tensor_view.hpp"

namespace lynxsim::quant {

struct PlaneEncoded {
  QuantConfig config;
  PlaneSplit split;
  int tokens = 0;
  int channels = 0;
  std::vector<std::vector<std::uint8_t>> planes;  // wire bytes per plane

  std::size_t total_bytes() const;
};

// Exact wire bytes per plane for a [tokens][channels] block.
std::vector<std::size_t> encoded_bytes(const QuantConfig& config, const PlaneSplit& split, int tokens,
                                       int channels);

// Plane-0 metadata layout: bytes before the packed codes of plane p (4·num_groups for p = 0, else 0),
// and the little-endian serialization of the fp16 scales followed by the fp16 minimums.
std::size_t plane_code_offset(const PlaneEncoded& encoded, int plane);
void write_plane_metadata(std::span<const std::uint16_t> scales, std::span<const std::uint16_t> mins,
                          std::vector<std::uint8_t>& plane0);
void read_plane_metadata(const std::vector<std::uint8_t>& plane0, std::size_t num_groups,
                         std::vector<std::uint16_t>& scales, std::vector<std::uint16_t>& mins);

// Split + pack of an already quantized block, and the inverse (needs every plane).
PlaneEncoded pack_block(const QuantizedBlock& block, const PlaneSplit& split);
QuantizedBlock unpack_block(const PlaneEncoded& encoded);

// Reference path: quantize_reference + split_planes + pack_plane; decode through merge_planes and
// dequantize_reference (k = n) or reconstruct_from_planes (k < n).
PlaneEncoded encode_planes_reference(BlockView input, const QuantConfig& config, const PlaneSplit& split);
void decode_planes_reference(const PlaneEncoded& encoded, int planes_received, MutableBlockView output);

// Optimized single-thread path (same bytes and values as the reference, on every KernelIsa).
PlaneEncoded encode_planes_fast(BlockView input, const QuantConfig& config, const PlaneSplit& split,
                                KernelIsa isa = best_kernel_isa());
// Same, reusing the storage of `out` (no allocation when its planes already have the right sizes).
void encode_planes_fast_into(BlockView input, const QuantConfig& config, const PlaneSplit& split, PlaneEncoded& out,
                             KernelIsa isa = best_kernel_isa());
void decode_planes_fast(const PlaneEncoded& encoded, int planes_received, MutableBlockView output,
                        KernelIsa isa = best_kernel_isa());

// Many blocks (e.g. every layer and KV head), spread over num_threads std::threads (0 = hardware).
std::vector<PlaneEncoded> encode_blocks_fast(std::span<const BlockView> inputs, const QuantConfig& config,
                                             const PlaneSplit& split, int num_threads,
                                             KernelIsa isa = best_kernel_isa());
void encode_blocks_fast_into(std::span<const BlockView> inputs, const QuantConfig& config, const PlaneSplit& split,
                             int num_threads, std::span<PlaneEncoded> outputs, KernelIsa isa = best_kernel_isa());
void decode_blocks_fast(std::span<const PlaneEncoded> encoded, int planes_received,
                        std::span<const MutableBlockView> outputs, int num_threads,
                        KernelIsa isa = best_kernel_isa());

}  // namespace lynxsim::quant
