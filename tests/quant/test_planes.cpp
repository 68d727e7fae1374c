#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/half_precision.hpp"
#include "sim/quant/planes.hpp"
#include "sim/quant/quantize.hpp"

using namespace lynxsim::quant;

namespace {

const std::vector<PlaneSplit>& eight_bit_splits() {
  static const std::vector<PlaneSplit> splits{{{8}}, {{4, 4}}, {{2, 2, 4}}, {{3, 5}}, {{2, 6}}, {{1, 1, 2, 4}},
                                              {{5, 3}}, {{1, 1, 1, 1, 1, 1, 1, 1}}, {{7, 1}}};
  return splits;
}

}  // namespace

TEST_CASE("merging all planes restores the 8-bit code for every split") {
  std::vector<std::uint8_t> codes(256);
  for (int i = 0; i < 256; ++i) {
    codes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
  }
  for (const auto& split : eight_bit_splits()) {
    CHECK(merge_planes(split_planes(codes, 8, split), split) == codes);
  }
}

TEST_CASE("merging equals the direct 8-bit code on random and adversarial blocks") {
  const auto gaussian = quant_test::gaussian_channels(64, 128, 4, 21);
  std::vector<float> adversarial_values(64 * 128, 2.0F);
  for (std::size_t i = 0; i < adversarial_values.size(); i += 7) {
    adversarial_values[i] = (i % 3 == 0) ? 1e-41F : -65000.0F / 256.0F;
  }
  const std::vector<float>& adversarial = adversarial_values;
  for (const auto* x : {&gaussian, &adversarial}) {
    for (GroupAxis axis : {GroupAxis::per_token, GroupAxis::per_channel}) {
      const QuantizedBlock block = quantize_fast(BlockView(*x, 64, 128), QuantConfig{8, axis, 32, false});
      for (const auto& split : eight_bit_splits()) {
        REQUIRE(merge_planes(split_planes(block.codes, 8, split), split) == block.codes);
      }
    }
  }
}

TEST_CASE("planes hold the bits from the most significant down") {
  const std::vector<std::uint8_t> codes{0b10110110};
  const PlaneSplit split{{2, 2, 4}};
  const PlaneCodes planes = split_planes(codes, 8, split);
  CHECK(planes[0][0] == 0b10);
  CHECK(planes[1][0] == 0b11);
  CHECK(planes[2][0] == 0b0110);
  CHECK(split.shift_of(0) == 6);
  CHECK(split.shift_of(2) == 0);
}

TEST_CASE("reconstruction from all planes equals dequantization and from fewer sits at the bucket middle") {
  const auto x = quant_test::gaussian_channels(16, 64, 2, 9);
  const QuantizedBlock block = quantize_reference(BlockView(x, 16, 64), QuantConfig{8, GroupAxis::per_token, 32, false});
  const PlaneSplit split{{2, 2, 4}};
  CHECK(reconstruct_from_planes(block, split, 3) == dequantize(block));
  const auto anchor = reconstruct_from_planes(block, split, 1);
  const auto floor = reconstruct_from_planes(block, split, 2, AnchorRounding::floor);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::size_t g = i / 32;
    const float s = fp16_to_float(block.scales[g]);
    const float m = fp16_to_float(block.mins[g]);
    const unsigned hi = block.codes[i] >> 6;
    CHECK(anchor[i] == (static_cast<float>(hi * 64) + 31.5F) * s + m);
    CHECK(floor[i] == static_cast<float>((block.codes[i] >> 4) * 16) * s + m);
  }
}

TEST_CASE("reconstruction equals the per-element definition for both group axes and ragged groups") {
  const int tokens = 23;
  const int channels = 50;
  const auto x = quant_test::wild_values(tokens, channels, 19);
  for (GroupAxis axis : {GroupAxis::per_token, GroupAxis::per_channel}) {
    for (int group : {1, 7, 16, 64}) {
      const QuantizedBlock block = quantize_reference(BlockView(x, tokens, channels), QuantConfig{8, axis, group, false});
      const GroupLayout layout = block.layout();
      for (const auto& split : eight_bit_splits()) {
        for (int k = 1; k <= split.num_planes(); ++k) {
          const int dropped = 8 - split.bits_in_first(k);
          const auto mid = reconstruct_from_planes(block, split, k);
          const auto floor = reconstruct_from_planes(block, split, k, AnchorRounding::floor);
          for (int t = 0; t < tokens; ++t) {
            for (int c = 0; c < channels; ++c) {
              const std::size_t i = static_cast<std::size_t>(t * channels + c);
              const std::size_t g = layout.group_of(t, c);
              const float s = fp16_to_float(block.scales[g]);
              const float m = fp16_to_float(block.mins[g]);
              const auto level = static_cast<float>((block.codes[i] >> dropped) << dropped);
              REQUIRE(mid[i] == (level + static_cast<float>((1 << dropped) - 1) * 0.5F) * s + m);
              REQUIRE(floor[i] == level * s + m);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("plane splits are validated against the code width") {
  CHECK_THROWS_AS(PlaneSplit({4, 3}).validate(8), std::invalid_argument);
  CHECK_THROWS_AS(PlaneSplit({}).validate(0), std::invalid_argument);
  CHECK_THROWS_AS(PlaneSplit({0, 8}).validate(8), std::invalid_argument);
  CHECK_NOTHROW(PlaneSplit({3, 1}).validate(4));
  const std::vector<std::uint8_t> codes{1, 2, 3};
  CHECK_THROWS_AS(split_planes(codes, 8, PlaneSplit{{4, 2}}), std::invalid_argument);
}
