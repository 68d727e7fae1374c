#include "sim/quant/bit_pack.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

#include "sim/quant/span_kernels.hpp"

namespace lynxsim::quant {
namespace {

void check_bits(int bits) {
  if (bits < 1 || bits > 8) {
    throw std::invalid_argument("bit packing: width must be in [1, 8], got " + std::to_string(bits));
  }
}

static_assert(std::endian::native == std::endian::little, "the word-wise packing assumes a little-endian host");

// Widths 1, 2 and 4 move eight codes at a time through one 64-bit word (code j in byte j). Packing
// gathers the w-bit fields in three halving steps (pairs, quads, all eight), each a shift, an OR and
// a mask, leaving the w output bytes in the low end of the word; unpacking runs the steps backwards.
// These are lane-wise 64-bit operations the compiler vectorizes.
constexpr std::uint64_t repeated_mask(int width, int stride) {
  std::uint64_t mask = 0;
  for (int position = 0; position < 64; position += stride) {
    mask |= ((std::uint64_t{1} << width) - 1U) << position;
  }
  return mask;
}

template <int Bits>
std::uint64_t gather_eight(std::uint64_t word, int shift) {
  std::uint64_t t = (word >> shift) & repeated_mask(Bits, 8);
  t = (t | (t >> (8 - Bits))) & repeated_mask(2 * Bits, 16);
  t = (t | (t >> (16 - 2 * Bits))) & repeated_mask(4 * Bits, 32);
  return (t | (t >> (32 - 4 * Bits))) & repeated_mask(8 * Bits, 64);
}

template <int Bits>
std::uint64_t scatter_eight(std::uint64_t packed) {
  std::uint64_t t = (packed | (packed << (32 - 4 * Bits))) & repeated_mask(4 * Bits, 32);
  t = (t | (t << (16 - 2 * Bits))) & repeated_mask(2 * Bits, 16);
  return (t | (t << (8 - Bits))) & repeated_mask(Bits, 8);
}

template <int Bits>
void pack_aligned(const std::uint8_t* codes, std::size_t n, int shift, std::uint8_t* out) {
  constexpr unsigned kMask = (1U << Bits) - 1U;
  const std::size_t words = n / 8;
  for (std::size_t k = 0; k < words; ++k) {
    std::uint64_t word = 0;
    std::memcpy(&word, codes + 8 * k, sizeof word);
    const std::uint64_t packed = gather_eight<Bits>(word, shift);
    std::memcpy(out + static_cast<std::size_t>(Bits) * k, &packed, Bits);
  }
  std::uint8_t* tail = out + static_cast<std::size_t>(Bits) * words;
  for (std::size_t i = 8 * words; i < n; ++i) {
    const std::size_t bit = (i - 8 * words) * Bits;
    if (bit % 8 == 0) {
      tail[bit / 8] = 0;
    }
    tail[bit / 8] = static_cast<std::uint8_t>(tail[bit / 8] | (((static_cast<unsigned>(codes[i]) >> shift) & kMask)
                                                               << (bit % 8)));
  }
}

template <int Bits>
void unpack_aligned(const std::uint8_t* bytes, std::size_t n, int shift, std::uint8_t* codes) {
  constexpr unsigned kMask = (1U << Bits) - 1U;
  const std::size_t words = n / 8;
  for (std::size_t k = 0; k < words; ++k) {
    std::uint64_t packed = 0;
    std::memcpy(&packed, bytes + static_cast<std::size_t>(Bits) * k, Bits);
    std::uint64_t word = 0;
    std::memcpy(&word, codes + 8 * k, sizeof word);
    word |= scatter_eight<Bits>(packed) << shift;
    std::memcpy(codes + 8 * k, &word, sizeof word);
  }
  const std::uint8_t* tail = bytes + static_cast<std::size_t>(Bits) * words;
  for (std::size_t i = 8 * words; i < n; ++i) {
    const std::size_t bit = (i - 8 * words) * Bits;
    const unsigned value = (static_cast<unsigned>(tail[bit / 8]) >> (bit % 8)) & kMask;
    codes[i] = static_cast<std::uint8_t>(codes[i] | (value << shift));
  }
}

void pack_bytes(const std::uint8_t* codes, std::size_t n, int shift, int bits, std::uint8_t* out) {
  const unsigned mask = (1U << bits) - 1U;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = static_cast<std::uint8_t>((static_cast<unsigned>(codes[i]) >> shift) & mask);
  }
}

void unpack_bytes(const std::uint8_t* bytes, std::size_t n, int shift, std::uint8_t* codes) {
  for (std::size_t i = 0; i < n; ++i) {
    codes[i] = static_cast<std::uint8_t>(codes[i] | (static_cast<unsigned>(bytes[i]) << shift));
  }
}

void pack_generic(const std::uint8_t* codes, std::size_t n, int shift, int bits, std::uint8_t* out) {
  const std::uint64_t mask = (1U << bits) - 1U;
  std::uint64_t acc = 0;
  int filled = 0;
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    acc |= ((static_cast<std::uint64_t>(codes[i]) >> shift) & mask) << filled;
    filled += bits;
    while (filled >= 8) {
      out[k++] = static_cast<std::uint8_t>(acc);
      acc >>= 8;
      filled -= 8;
    }
  }
  if (filled > 0) {
    out[k] = static_cast<std::uint8_t>(acc);
  }
}

void unpack_generic(const std::uint8_t* bytes, std::size_t n, int bits, int shift, std::uint8_t* codes) {
  const std::uint64_t mask = (1U << bits) - 1U;
  std::uint64_t acc = 0;
  int available = 0;
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    while (available < bits) {
      acc |= static_cast<std::uint64_t>(bytes[k++]) << available;
      available += 8;
    }
    codes[i] = static_cast<std::uint8_t>(codes[i] | ((acc & mask) << shift));
    acc >>= bits;
    available -= bits;
  }
}

}  // namespace

std::size_t packed_bytes(std::size_t num_codes, int bits) {
  check_bits(bits);
  return (num_codes * static_cast<std::size_t>(bits) + 7U) / 8U;
}

void pack_shifted_into(const std::uint8_t* codes, std::size_t n, int shift, int bits, std::uint8_t* out,
                       KernelIsa isa) {
  const std::size_t done = span_kernels(isa).pack_shifted(codes, n, shift, bits, out);
  codes += done;
  n -= done;
  out += done * static_cast<std::size_t>(bits) / 8;
  switch (bits) {
    case 1: pack_aligned<1>(codes, n, shift, out); break;
    case 2: pack_aligned<2>(codes, n, shift, out); break;
    case 4: pack_aligned<4>(codes, n, shift, out); break;
    case 8: pack_bytes(codes, n, shift, bits, out); break;
    default: pack_generic(codes, n, shift, bits, out); break;
  }
}

void unpack_merge_into(const std::uint8_t* bytes, std::size_t n, int bits, int shift, std::uint8_t* codes,
                       KernelIsa isa) {
  const std::size_t done = span_kernels(isa).unpack_merge(bytes, n, bits, shift, codes);
  bytes += done * static_cast<std::size_t>(bits) / 8;
  n -= done;
  codes += done;
  switch (bits) {
    case 1: unpack_aligned<1>(bytes, n, shift, codes); break;
    case 2: unpack_aligned<2>(bytes, n, shift, codes); break;
    case 4: unpack_aligned<4>(bytes, n, shift, codes); break;
    case 8: unpack_bytes(bytes, n, shift, codes); break;
    default: unpack_generic(bytes, n, bits, shift, codes); break;
  }
}

void pack_plane_into(std::span<const std::uint8_t> codes, int bits, std::span<std::uint8_t> out) {
  if (out.size() != packed_bytes(codes.size(), bits)) {
    throw std::invalid_argument("bit packing: output holds " + std::to_string(out.size()) + " bytes, expected " +
                                std::to_string(packed_bytes(codes.size(), bits)));
  }
  const unsigned limit = 1U << bits;
  for (std::uint8_t code : codes) {
    if (code >= limit) {
      throw std::invalid_argument("bit packing: code " + std::to_string(code) + " does not fit " +
                                  std::to_string(bits) + " bits");
    }
  }
  pack_shifted_into(codes.data(), codes.size(), 0, bits, out.data());
}

void unpack_plane_into(std::span<const std::uint8_t> bytes, int bits, std::span<std::uint8_t> out) {
  if (bytes.size() != packed_bytes(out.size(), bits)) {
    throw std::invalid_argument("bit unpacking: " + std::to_string(bytes.size()) + " bytes cannot hold exactly " +
                                std::to_string(out.size()) + " codes of " + std::to_string(bits) + " bits");
  }
  std::fill(out.begin(), out.end(), std::uint8_t{0});
  unpack_merge_into(bytes.data(), out.size(), bits, 0, out.data());
}

std::vector<std::uint8_t> pack_plane(std::span<const std::uint8_t> codes, int bits) {
  std::vector<std::uint8_t> out(packed_bytes(codes.size(), bits));
  pack_plane_into(codes, bits, out);
  return out;
}

std::vector<std::uint8_t> unpack_plane(std::span<const std::uint8_t> bytes, int bits, std::size_t num_codes) {
  std::vector<std::uint8_t> out(num_codes);
  unpack_plane_into(bytes, bits, out);
  return out;
}

}  // namespace lynxsim::quant
