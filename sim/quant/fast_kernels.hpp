#pragma once
// Row-range building blocks of the optimized CPU kernels (quantize.hpp gives the arithmetic).
//
// Each function handles the rows [token_begin, token_end) of a block so that a caller can stream a
// large block through cache-sized chunks. With per-channel groups token_begin must be a multiple of
// the group size and token_end a multiple of it or the block end, so no group is cut. Codes are
// written for those rows only (codes[0] is row token_begin); scales/mins are the whole block's arrays.
// The inner loops over contiguous floats come from span_kernels.hpp, in the variant `isa` names
// (kernel_isa.hpp); every variant gives the same bits.

#include <cstdint>

#include "sim/quant/quant_config.hpp"
#include "sim/quant/span_kernels.hpp"
#include "sim/quant/tensor_view.hpp"

namespace lynxsim::quant {

template <typename Bits>
struct BasicBlockMetadata {
  const QuantConfig* config = nullptr;
  const GroupLayout* layout = nullptr;
  Bits* scales = nullptr;  // fp16 bits, one per group of the whole block
  Bits* mins = nullptr;
};
using BlockMetadata = BasicBlockMetadata<std::uint16_t>;
using ConstBlockMetadata = BasicBlockMetadata<const std::uint16_t>;

void quantize_rows_fast(BlockView input, const BlockMetadata& meta, int token_begin, int token_end,
                        std::uint8_t* codes, KernelIsa isa);

// Quantizes per-token rows straight into bit planes (span_kernels.hpp's PlaneTargets; plane p's bytes
// points at the plane code of row token_begin's first element), without a code buffer. Applies when
// planes_on_byte_boundaries(): per-token groups, every group starting on a multiple of 8 elements
// (channels and group size multiples of 8, or one group per row), plane widths 1, 2, 4 or 8. With
// `stream`, runs of uniform groups (below) write the planes through non-temporal stores, fenced before
// returning.
bool planes_on_byte_boundaries(const QuantConfig& config, int channels, const PlaneTargets& planes);
void quantize_rows_to_planes(BlockView input, const BlockMetadata& meta, int token_begin, int token_end,
                             const PlaneTargets& planes, bool stream, KernelIsa isa);

// Dequantizes per-token rows straight from the planes received (plane p's bytes point at the plane
// code of row token_begin's first element), without a code buffer, when the groups are uniform: one
// size, a multiple of 32, dividing the channels; with `stream`, through non-temporal stores
// (span_kernels.hpp), fenced before returning. Returns false, having written nothing, when the groups
// are not uniform or `isa` has no such loop (the caller then goes through unpack_merge_into).
bool dequantize_rows_from_planes(const PlaneSources& planes, const ConstBlockMetadata& meta, int token_begin,
                                 int token_end, float level_offset, MutableBlockView output, bool stream,
                                 KernelIsa isa);

// x̂ = (q + level_offset)·s + m. level_offset = 0 is plain dequantization; codes holding only the
// first planes (low bits zero) with level_offset = (2^(b−a) − 1)/2 give the bucket-middle
// reconstruction of planes.hpp.
void dequantize_rows_fast(const std::uint8_t* codes, const ConstBlockMetadata& meta, int token_begin, int token_end,
                          float level_offset, MutableBlockView output, KernelIsa isa);

}  // namespace lynxsim::quant
