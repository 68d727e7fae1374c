#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "sim/quant/range_coder.hpp"
#include "sim/quant/range_coder_table.hpp"
#include "test_cachegen_synthetic.hpp"

using namespace lynxsim::quant;
using cachegen_test::SplitMix;

namespace {

struct Coded {
  FrequencyTable table;
  std::vector<std::uint8_t> bytes;
};

Coded code_stream(const std::vector<std::size_t>& symbols, std::size_t alphabet) {
  std::vector<std::uint64_t> counts(alphabet, 0);
  for (const std::size_t s : symbols) ++counts[s];
  Coded out{FrequencyTable::from_counts(counts), {}};
  RangeEncoder encoder;
  for (const std::size_t s : symbols) out.table.encode(encoder, s);
  out.bytes = encoder.finish();
  return out;
}

std::vector<std::size_t> decode_stream(const Coded& coded, std::size_t count) {
  RangeDecoder decoder(coded.bytes);
  std::vector<std::size_t> symbols(count);
  for (auto& s : symbols) s = coded.table.decode(decoder);
  return symbols;
}

bool round_trips(const std::vector<std::size_t>& symbols, std::size_t alphabet) {
  const Coded coded = code_stream(symbols, alphabet);
  return decode_stream(coded, symbols.size()) == symbols;
}

double entropy_bits(const std::vector<std::size_t>& symbols, std::size_t alphabet) {
  std::vector<double> counts(alphabet, 0.0);
  for (const std::size_t s : symbols) counts[s] += 1.0;
  const auto n = static_cast<double>(symbols.size());
  double bits = 0.0;
  for (const double c : counts) {
    if (c > 0.0) bits -= c * std::log2(c / n);
  }
  return bits;
}

std::vector<std::size_t> geometric_stream(std::size_t n, std::size_t alphabet, double p,
                                          std::uint64_t seed) {
  SplitMix rng(seed);
  std::vector<std::size_t> symbols(n);
  for (auto& s : symbols) {
    s = 0;
    while (s + 1 < alphabet && rng.uniform01() > p) ++s;
  }
  return symbols;
}

}  // namespace

TEST_CASE("frequency tables sum to 2^16, keep every present symbol and drop absent ones") {
  const std::vector<std::uint64_t> counts{1000000, 0, 1, 3, 0, 77, 12345};
  const FrequencyTable table = FrequencyTable::from_counts(counts);
  std::uint32_t sum = 0;
  for (std::size_t s = 0; s < counts.size(); ++s) {
    sum += table.freq(s);
    CHECK((counts[s] == 0) == (table.freq(s) == 0));
  }
  CHECK(sum == kRangeCoderTotal);
  CHECK(table.cum_freq(counts.size()) == kRangeCoderTotal);
}

TEST_CASE("a table survives serialization bit-exactly and costs 2 + 2 bytes per window entry") {
  const std::vector<std::uint64_t> counts{0, 0, 5, 0, 9, 1, 0, 0};
  const FrequencyTable table = FrequencyTable::from_counts(counts);
  std::vector<std::uint8_t> bytes;
  table.serialize(bytes);
  CHECK(bytes.size() == 2 + 2 * 4);
  CHECK(table.serialized_bytes() == bytes.size());
  std::size_t offset = 0;
  const FrequencyTable back = FrequencyTable::deserialize(bytes, offset, counts.size());
  CHECK(offset == bytes.size());
  for (std::size_t s = 0; s < counts.size(); ++s) CHECK(back.freq(s) == table.freq(s));
}

TEST_CASE("a corrupt table is rejected instead of decoded") {
  std::vector<std::uint8_t> bytes{0, 1, 0x00, 0x10, 0x00, 0x10};
  std::size_t offset = 0;
  CHECK_THROWS_AS(FrequencyTable::deserialize(bytes, offset, 4), std::runtime_error);
  offset = 0;
  CHECK_THROWS_AS(FrequencyTable::deserialize(bytes, offset, 1), std::invalid_argument);
}

TEST_CASE("coding a symbol without code space throws") {
  const FrequencyTable table = FrequencyTable::from_counts(std::vector<std::uint64_t>{4, 0, 4});
  RangeEncoder encoder;
  CHECK_THROWS_AS(table.encode(encoder, 1), std::invalid_argument);
  CHECK_THROWS_AS(table.encode(encoder, 3), std::invalid_argument);
}

TEST_CASE("random streams over random alphabets round-trip exactly") {
  SplitMix rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t alphabet = 2 + rng.below(255);
    const std::size_t length = 1 + rng.below(trial < 300 ? 40 : 20000);
    const std::size_t used = 1 + rng.below(alphabet);
    const std::size_t base = rng.below(alphabet - used + 1);
    std::vector<std::size_t> symbols(length);
    for (auto& s : symbols) s = base + (rng.below(4) == 0 ? rng.below(used) : std::min(used - 1, std::size_t{1}));
    CHECK(round_trips(symbols, alphabet));
  }
}

TEST_CASE("adversarial streams round-trip exactly") {
  SUBCASE("all one symbol costs almost nothing") {
    for (const std::size_t symbol : {std::size_t{0}, std::size_t{17}, std::size_t{63}}) {
      const std::vector<std::size_t> symbols(100000, symbol);
      const Coded coded = code_stream(symbols, 64);
      CHECK(decode_stream(coded, symbols.size()) == symbols);
      CHECK(coded.bytes.size() <= 4);
    }
  }
  SUBCASE("uniform symbols cost log2(alphabet) bits") {
    SplitMix rng(3);
    std::vector<std::size_t> symbols(200000);
    for (auto& s : symbols) s = rng.below(256);
    const Coded coded = code_stream(symbols, 256);
    CHECK(decode_stream(coded, symbols.size()) == symbols);
    CHECK(static_cast<double>(coded.bytes.size()) ==
          doctest::Approx(200000.0).epsilon(0.002));
  }
  SUBCASE("every symbol once") {
    std::vector<std::size_t> symbols(256);
    std::iota(symbols.begin(), symbols.end(), std::size_t{0});
    CHECK(round_trips(symbols, 256));
    std::vector<std::size_t> reversed(symbols.rbegin(), symbols.rend());
    CHECK(round_trips(reversed, 256));
  }
  SUBCASE("an empty stream codes to zero bytes") {
    RangeEncoder encoder;
    CHECK(encoder.finish().empty());
  }
  SUBCASE("a rare symbol among a frequent one, at both ends of the table") {
    for (const std::size_t frequent : {std::size_t{0}, std::size_t{1}}) {
      std::vector<std::size_t> symbols(300000, frequent);
      symbols[0] = symbols[150000] = symbols.back() = 1 - frequent;
      CHECK(round_trips(symbols, 2));
    }
  }
}

TEST_CASE("long streams code within 1% of their empirical entropy") {
  for (const double p : {0.15, 0.35, 0.6}) {
    const auto symbols = geometric_stream(1000000, 32, p, 11);
    const Coded coded = code_stream(symbols, 32);
    const double bound_bytes = entropy_bits(symbols, 32) / 8.0;
    const auto bytes = static_cast<double>(coded.bytes.size());
    CAPTURE(p);
    CHECK(bytes <= 1.01 * bound_bytes);
    CHECK(bytes >= bound_bytes - 8.0);
  }
}
