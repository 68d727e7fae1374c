#pragma once
// A static frequency table for the range coder, quantized to a total of T = 2^16.
//
// Quantization. From symbol counts n_s (N = sum n_s > 0) each present symbol gets
//   f_s = max(1, floor(n_s * T / N)),
// absent symbols get 0, and the difference T - sum f_s is settled on the most frequent symbols
// (ties to the lowest symbol), never pushing a present symbol below 1. No frequency may reach T
// because a table ships as 16-bit numbers: when one symbol holds all the counts it gets T - 1 and a
// neighbour gets 1, which costs log2(T / (T - 1)) = 2.2e-5 bits per symbol. The code length of a
// stream is then within sum_s n_s log2((n_s / N) / (f_s / T)) bits of the empirical entropy N * H.
//
// Wire format (what a receiver needs to rebuild the table bit-exactly): one byte for the first
// symbol with a nonzero frequency, one byte for the count k of entries from there to the last
// nonzero one minus one, then k + 1 little-endian 16-bit frequencies (the CDF's differences, 16
// bits per entry). Symbols outside that window have frequency 0. Alphabets are limited to 256
// symbols; an empty table (no counts) serializes to nothing and codes nothing.
//
// Decoding a symbol searches the cumulative frequencies with a 256-bucket index on the top 8 bits
// of the coder's target followed by a short linear scan.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/quant/range_coder.hpp"

namespace lynxsim::quant {

inline constexpr std::size_t kMaxTableSymbols = 256;

class FrequencyTable {
public:
  FrequencyTable() = default;
  // Quantizes counts (index = symbol) to a total of 2^16; alphabet size = counts.size() <= 256.
  static FrequencyTable from_counts(std::span<const std::uint64_t> counts);
  // Reads a table written by serialize() starting at bytes[offset]; advances offset.
  static FrequencyTable deserialize(std::span<const std::uint8_t> bytes, std::size_t& offset,
                                    std::size_t alphabet_size);

  void serialize(std::vector<std::uint8_t>& out) const;
  std::size_t serialized_bytes() const;

  bool empty() const { return freq_.empty(); }
  std::size_t alphabet_size() const { return freq_.size(); }
  std::uint32_t freq(std::size_t symbol) const { return freq_[symbol]; }
  std::uint32_t cum_freq(std::size_t symbol) const { return cum_[symbol]; }

  void encode(RangeEncoder& encoder, std::size_t symbol) const {
    if (symbol >= freq_.size() || freq_[symbol] == 0) throw_no_code_space(symbol);
    encoder.encode(cum_[symbol], freq_[symbol]);
  }
  std::size_t decode(RangeDecoder& decoder) const {
    const std::uint32_t target = decoder.target();
    std::size_t s = bucket_start_[target >> 8];
    while (cum_[s + 1] <= target) ++s;
    decoder.consume(cum_[s], freq_[s]);
    return s;
  }

private:
  void build_index();
  [[noreturn]] static void throw_no_code_space(std::size_t symbol);

  std::vector<std::uint32_t> freq_;
  std::vector<std::uint32_t> cum_;
  std::array<std::uint8_t, 257> bucket_start_{};
};

}  // namespace lynxsim::quant
