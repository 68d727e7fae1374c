#include "sim/quant/range_coder.hpp"

namespace lynxsim::quant {

void RangeEncoder::shift_low() {
  if (static_cast<std::uint32_t>(low_) < 0xFF000000U || (low_ >> 32) != 0) {
    const auto carry = static_cast<std::uint8_t>(low_ >> 32);
    std::uint8_t pending = cache_;
    do {
      if (first_byte_pending_) {
        first_byte_pending_ = false;
      } else {
        out_.push_back(static_cast<std::uint8_t>(pending + carry));
      }
      pending = 0xFF;
    } while (--cache_size_ != 0);
    cache_ = static_cast<std::uint8_t>(low_ >> 24);
  }
  ++cache_size_;
  low_ = (low_ & 0x00FFFFFFU) << 8;
}

std::vector<std::uint8_t> RangeEncoder::finish() {
  if (num_symbols_ == 0) return {};
  const std::uint64_t high = low_ + range_;
  for (int bits = 32; bits >= 0; --bits) {
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    const std::uint64_t rounded = (low_ + mask) & ~mask;
    if (rounded < high) {
      low_ = rounded;
      break;
    }
  }
  for (int i = 0; i < 5; ++i) shift_low();
  while (!out_.empty() && out_.back() == 0) out_.pop_back();
  std::vector<std::uint8_t> result;
  result.swap(out_);
  return result;
}

RangeDecoder::RangeDecoder(std::span<const std::uint8_t> bytes) : bytes_(bytes) {
  for (int i = 0; i < 4; ++i) code_ = (code_ << 8) | next_byte();
}

}  // namespace lynxsim::quant
