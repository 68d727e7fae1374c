#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/bit_pack.hpp"

using namespace lynxsim::quant;

TEST_CASE("packing round trips bit-exactly for every width and length") {
  quant_test::TestRng rng(7);
  for (int bits = 1; bits <= 8; ++bits) {
    for (std::size_t n : {0U, 1U, 2U, 3U, 5U, 7U, 8U, 9U, 15U, 16U, 17U, 63U, 64U, 1000U, 4097U}) {
      std::vector<std::uint8_t> codes(n);
      for (auto& c : codes) {
        c = static_cast<std::uint8_t>(rng.next_u64() & ((1U << bits) - 1U));
      }
      const auto packed = pack_plane(codes, bits);
      REQUIRE(packed.size() == (n * static_cast<std::size_t>(bits) + 7) / 8);
      CHECK(unpack_plane(packed, bits, n) == codes);
    }
  }
}

TEST_CASE("packing is a little-endian bit stream with zero padding") {
  CHECK(pack_plane(std::vector<std::uint8_t>{0x1, 0x2, 0x3}, 4) == std::vector<std::uint8_t>{0x21, 0x03});
  CHECK(pack_plane(std::vector<std::uint8_t>{1, 2, 3, 0, 1}, 2) == std::vector<std::uint8_t>{0x39, 0x01});
  CHECK(pack_plane(std::vector<std::uint8_t>{0x5, 0x3, 0x7}, 3) == std::vector<std::uint8_t>{0xdd, 0x01});
  CHECK(pack_plane(std::vector<std::uint8_t>{0x7f, 0x01}, 7) == std::vector<std::uint8_t>{0xff, 0x00});
  CHECK(pack_plane(std::vector<std::uint8_t>{1, 0, 1, 1, 0, 0, 0, 1, 1}, 1) ==
        std::vector<std::uint8_t>{0x8d, 0x01});
}

TEST_CASE("packing rejects codes wider than the plane and bad sizes") {
  CHECK_THROWS_AS(pack_plane(std::vector<std::uint8_t>{16}, 4), std::invalid_argument);
  CHECK_THROWS_AS(pack_plane(std::vector<std::uint8_t>{1}, 0), std::invalid_argument);
  CHECK_THROWS_AS(pack_plane(std::vector<std::uint8_t>{1}, 9), std::invalid_argument);
  CHECK_THROWS_AS(unpack_plane(std::vector<std::uint8_t>{1, 2}, 4, 2), std::invalid_argument);
}

TEST_CASE("shifted packing extracts a plane and merging unpacks it back in place") {
  const std::vector<std::uint8_t> codes{0xab, 0x12, 0xff, 0x00, 0x5c};
  std::vector<std::uint8_t> high(3);
  std::vector<std::uint8_t> low(3);
  pack_shifted_into(codes.data(), codes.size(), 4, 4, high.data());
  pack_shifted_into(codes.data(), codes.size(), 0, 4, low.data());
  std::vector<std::uint8_t> merged(codes.size(), 0);
  unpack_merge_into(high.data(), merged.size(), 4, 4, merged.data());
  unpack_merge_into(low.data(), merged.size(), 4, 0, merged.data());
  CHECK(merged == codes);
}
