#pragma once
// Packing of w-bit codes (1 <= w <= 8) into bytes, as one little-endian bit stream: code i occupies
// bits [i·w, (i+1)·w) of the stream, bit j of the stream is bit (j mod 8) of byte j/8. n codes take
// exactly ceil(n·w / 8) bytes; unused high bits of the last byte are zero. Codes must be < 2^w.
// Widths 1, 2, 4 and 8 have byte-aligned fast paths (AVX2 ones when the KernelIsa argument names them);
// the others use a 64-bit accumulator.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/quant/kernel_isa.hpp"

namespace lynxsim::quant {

std::size_t packed_bytes(std::size_t num_codes, int bits);

std::vector<std::uint8_t> pack_plane(std::span<const std::uint8_t> codes, int bits);
std::vector<std::uint8_t> unpack_plane(std::span<const std::uint8_t> bytes, int bits, std::size_t num_codes);

// In-place variants writing into caller storage of exactly packed_bytes() / num_codes entries.
void pack_plane_into(std::span<const std::uint8_t> codes, int bits, std::span<std::uint8_t> out);
void unpack_plane_into(std::span<const std::uint8_t> bytes, int bits, std::span<std::uint8_t> out);

// Fused plane kernels on raw arrays of n codes (out / bytes hold packed_bytes(n, bits) bytes):
//   pack_shifted_into: packs the plane (code >> shift) & (2^bits − 1);
//   unpack_merge_into: codes[i] |= plane_code_i << shift (codes must start zeroed for a merge).
void pack_shifted_into(const std::uint8_t* codes, std::size_t n, int shift, int bits, std::uint8_t* out,
                       KernelIsa isa = best_kernel_isa());
void unpack_merge_into(const std::uint8_t* bytes, std::size_t n, int bits, int shift, std::uint8_t* codes,
                       KernelIsa isa = best_kernel_isa());

}  // namespace lynxsim::quant
