#include "sim/quant/range_coder_table.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace lynxsim::quant {
namespace {

constexpr std::uint64_t kMaxCountTotal = std::uint64_t{1} << 46;

void settle_shortfall(std::vector<std::uint32_t>& freq, std::vector<std::uint64_t>& remainder,
                      std::uint32_t shortfall) {
  std::vector<std::size_t> order(freq.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
  for (std::size_t i = 0; shortfall > 0; i = (i + 1) % order.size()) {
    if (freq[order[i]] == 0) continue;
    ++freq[order[i]];
    --shortfall;
  }
}

void settle_excess(std::vector<std::uint32_t>& freq, std::uint32_t excess) {
  const auto largest = std::max_element(freq.begin(), freq.end());
  *largest -= excess;
}

}  // namespace

FrequencyTable FrequencyTable::from_counts(std::span<const std::uint64_t> counts) {
  if (counts.size() < 2 || counts.size() > kMaxTableSymbols) {
    throw std::invalid_argument("FrequencyTable: alphabet size must be in [2, 256], got " +
                                std::to_string(counts.size()));
  }
  const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
  FrequencyTable table;
  if (total == 0) return table;
  if (total >= kMaxCountTotal) throw std::invalid_argument("FrequencyTable: counts too large");
  std::vector<std::uint32_t> freq(counts.size(), 0);
  std::vector<std::uint64_t> remainder(counts.size(), 0);
  std::uint64_t sum = 0;
  std::size_t present = 0;
  for (std::size_t s = 0; s < counts.size(); ++s) {
    if (counts[s] == 0) continue;
    const std::uint64_t scaled = counts[s] * kRangeCoderTotal;
    freq[s] = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, scaled / total));
    remainder[s] = scaled / total == 0 ? 0 : scaled % total;
    sum += freq[s];
    ++present;
  }
  if (present == 1) {
    const auto only = static_cast<std::size_t>(std::find_if(freq.begin(), freq.end(),
                                                            [](std::uint32_t f) { return f > 0; }) -
                                               freq.begin());
    freq[only] = kRangeCoderTotal - 1;
    freq[only + 1 < freq.size() ? only + 1 : only - 1] = 1;
  } else if (sum < kRangeCoderTotal) {
    settle_shortfall(freq, remainder, static_cast<std::uint32_t>(kRangeCoderTotal - sum));
  } else if (sum > kRangeCoderTotal) {
    settle_excess(freq, static_cast<std::uint32_t>(sum - kRangeCoderTotal));
  }
  table.freq_ = std::move(freq);
  table.build_index();
  return table;
}

void FrequencyTable::build_index() {
  cum_.assign(freq_.size() + 1, 0);
  for (std::size_t s = 0; s < freq_.size(); ++s) cum_[s + 1] = cum_[s] + freq_[s];
  if (cum_.back() != kRangeCoderTotal) {
    throw std::runtime_error("FrequencyTable: frequencies do not sum to 2^16");
  }
  std::size_t s = 0;
  for (std::size_t bucket = 0; bucket < 256; ++bucket) {
    while (cum_[s + 1] <= bucket << 8) ++s;
    bucket_start_[bucket] = static_cast<std::uint8_t>(s);
  }
}

void FrequencyTable::serialize(std::vector<std::uint8_t>& out) const {
  if (empty()) return;
  const auto nonzero = [](std::uint32_t f) { return f > 0; };
  const auto first = static_cast<std::size_t>(
      std::find_if(freq_.begin(), freq_.end(), nonzero) - freq_.begin());
  const auto last = freq_.size() - 1 -
                    static_cast<std::size_t>(
                        std::find_if(freq_.rbegin(), freq_.rend(), nonzero) - freq_.rbegin());
  out.push_back(static_cast<std::uint8_t>(first));
  out.push_back(static_cast<std::uint8_t>(last - first));
  for (std::size_t s = first; s <= last; ++s) {
    out.push_back(static_cast<std::uint8_t>(freq_[s] & 0xFFU));
    out.push_back(static_cast<std::uint8_t>(freq_[s] >> 8));
  }
}

std::size_t FrequencyTable::serialized_bytes() const {
  std::vector<std::uint8_t> bytes;
  serialize(bytes);
  return bytes.size();
}

FrequencyTable FrequencyTable::deserialize(std::span<const std::uint8_t> bytes,
                                           std::size_t& offset, std::size_t alphabet_size) {
  if (alphabet_size < 2 || alphabet_size > kMaxTableSymbols) {
    throw std::invalid_argument("FrequencyTable: alphabet size must be in [2, 256]");
  }
  if (offset + 2 > bytes.size()) throw std::runtime_error("FrequencyTable: truncated table");
  const std::size_t first = bytes[offset];
  const std::size_t entries = std::size_t{bytes[offset + 1]} + 1;
  offset += 2;
  if (first + entries > alphabet_size || offset + 2 * entries > bytes.size()) {
    throw std::runtime_error("FrequencyTable: corrupt table header");
  }
  FrequencyTable table;
  table.freq_.assign(alphabet_size, 0);
  for (std::size_t i = 0; i < entries; ++i) {
    table.freq_[first + i] = bytes[offset] | (std::uint32_t{bytes[offset + 1]} << 8);
    offset += 2;
  }
  table.build_index();
  return table;
}

void FrequencyTable::throw_no_code_space(std::size_t symbol) {
  throw std::invalid_argument("FrequencyTable: symbol " + std::to_string(symbol) +
                              " has no code space in this table");
}

}  // namespace lynxsim::quant
