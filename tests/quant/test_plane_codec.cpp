#include <doctest/doctest.h>

#include <bit>
#include <limits>
#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/plane_codec.hpp"
#include "sim/quant/quantize.hpp"

using namespace lynxsim::quant;

namespace {

void require_same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE(std::bit_cast<std::uint32_t>(a[i]) == std::bit_cast<std::uint32_t>(b[i]));
  }
}

}  // namespace

TEST_CASE("encoded byte counts are exact: packed codes per plane plus fp16 metadata in plane 0") {
  const QuantConfig int8{8, GroupAxis::per_token, 128, false};
  CHECK(encoded_bytes(int8, PlaneSplit::single(8), 4096, 128) == std::vector<std::size_t>{4096 * 128 + 4096 * 4});
  CHECK(encoded_bytes(int8, PlaneSplit{{4, 4}}, 4096, 128) ==
        std::vector<std::size_t>{4096 * 64 + 4096 * 4, 4096 * 64});
  CHECK(encoded_bytes(int8, PlaneSplit{{2, 2, 4}}, 10, 128) == std::vector<std::size_t>{320 + 40, 320, 640});
  CHECK(encoded_bytes(int8, PlaneSplit{{3, 5}}, 1, 3) == std::vector<std::size_t>{2 + 4, 2});
  const QuantConfig keys{2, GroupAxis::per_channel, 32, false};
  CHECK(encoded_bytes(keys, PlaneSplit::single(2), 100, 128) == std::vector<std::size_t>{3200 + 4 * 4 * 128});
}

TEST_CASE("Lynx planes carry exactly the bytes of plain 8-bit") {
  const QuantConfig int8{8, GroupAxis::per_token, 128, false};
  const auto plain = encoded_bytes(int8, PlaneSplit::single(8), 512, 128);
  for (const PlaneSplit& split : {PlaneSplit{{4, 4}}, PlaneSplit{{2, 2, 4}}, PlaneSplit{{3, 5}}, PlaneSplit{{1, 1, 2, 4}}}) {
    std::size_t total = 0;
    for (auto b : encoded_bytes(int8, split, 512, 128)) {
      total += b;
    }
    CHECK(total == plain[0]);
  }
}

TEST_CASE("fast encode writes the reference bytes and decodes to the reference values") {
  const int tokens = 77;
  const int channels = 96;
  const auto x = quant_test::wild_values(tokens, channels, 31);
  const BlockView view(x, tokens, channels);
  for (GroupAxis axis : {GroupAxis::per_token, GroupAxis::per_channel}) {
    for (const PlaneSplit& split : {PlaneSplit{{8}}, PlaneSplit{{4, 4}}, PlaneSplit{{2, 2, 4}}, PlaneSplit{{3, 5}},
                                    PlaneSplit{{1, 1, 2, 4}}, PlaneSplit{{2, 6}}}) {
      for (int group : {3, 32, 128}) {
        const QuantConfig config{8, axis, group, false};
        const PlaneEncoded ref = encode_planes_reference(view, config, split);
        const PlaneEncoded fast = encode_planes_fast(view, config, split);
        REQUIRE(fast.planes == ref.planes);
        CHECK(ref.planes.size() == split.bits.size());
        for (int k = 1; k <= split.num_planes(); ++k) {
          std::vector<float> ref_out(x.size());
          std::vector<float> fast_out(x.size());
          decode_planes_reference(ref, k, MutableBlockView(ref_out, tokens, channels));
          decode_planes_fast(fast, k, MutableBlockView(fast_out, tokens, channels));
          require_same_bits(ref_out, fast_out);
        }
      }
    }
  }
}

TEST_CASE("decoding every plane restores the quantized block and its dequantized values") {
  const auto x = quant_test::gaussian_channels(40, 64, 4, 8);
  const QuantConfig config{8, GroupAxis::per_channel, 16, false};
  const QuantizedBlock block = quantize_reference(BlockView(x, 40, 64), config);
  const PlaneEncoded encoded = pack_block(block, PlaneSplit{{2, 2, 4}});
  const QuantizedBlock back = unpack_block(encoded);
  CHECK(back.codes == block.codes);
  CHECK(back.scales == block.scales);
  CHECK(back.mins == block.mins);
  std::vector<float> out(x.size());
  decode_planes_fast(encoded, 3, MutableBlockView(out, 40, 64));
  require_same_bits(out, dequantize(block));
}

TEST_CASE("lower-width codes split into planes too") {
  const auto x = quant_test::gaussian_channels(9, 33, 1, 4);
  const QuantConfig config{4, GroupAxis::per_token, 16, false};
  const PlaneEncoded ref = encode_planes_reference(BlockView(x, 9, 33), config, PlaneSplit{{1, 3}});
  const PlaneEncoded fast = encode_planes_fast(BlockView(x, 9, 33), config, PlaneSplit{{1, 3}});
  CHECK(fast.planes == ref.planes);
  CHECK(ref.total_bytes() == (9 * 33 + 7) / 8 + (9 * 33 * 3 + 7) / 8 + 9 * 3 * 4);
}

TEST_CASE("threaded encode and decode equal the single-thread kernels") {
  const int tokens = 64;
  const int channels = 128;
  std::vector<std::vector<float>> data;
  std::vector<BlockView> views;
  for (int b = 0; b < 7; ++b) {
    data.push_back(quant_test::gaussian_channels(tokens, channels, 4, 100 + static_cast<std::uint64_t>(b)));
  }
  for (const auto& d : data) {
    views.emplace_back(d, tokens, channels);
  }
  const QuantConfig config{8, GroupAxis::per_token, 128, false};
  const PlaneSplit split{{4, 4}};
  for (int threads : {1, 3, 0}) {
    const auto encoded = encode_blocks_fast(views, config, split, threads);
    std::vector<std::vector<float>> outs(views.size(), std::vector<float>(static_cast<std::size_t>(tokens * channels)));
    std::vector<MutableBlockView> out_views;
    for (auto& o : outs) {
      out_views.emplace_back(o, tokens, channels);
    }
    decode_blocks_fast(encoded, 1, out_views, threads);
    for (std::size_t b = 0; b < views.size(); ++b) {
      const PlaneEncoded ref = encode_planes_reference(views[b], config, split);
      REQUIRE(encoded[b].planes == ref.planes);
      std::vector<float> ref_out(outs[b].size());
      decode_planes_reference(ref, 1, MutableBlockView(ref_out, tokens, channels));
      require_same_bits(outs[b], ref_out);
    }
  }
}

TEST_CASE("errors inside worker threads reach the caller") {
  std::vector<float> bad(16 * 8, 1.0F);
  bad[5] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> good(16 * 8, 1.0F);
  const std::vector<BlockView> views{BlockView(good, 16, 8), BlockView(bad, 16, 8), BlockView(good, 16, 8)};
  CHECK_THROWS_AS(encode_blocks_fast(views, QuantConfig{8, GroupAxis::per_token, 8, false}, PlaneSplit{{4, 4}}, 3),
                  std::invalid_argument);
}

TEST_CASE("decode rejects truncated planes and too many requested planes") {
  const auto x = quant_test::gaussian_channels(8, 16, 0, 1);
  PlaneEncoded encoded = encode_planes_fast(BlockView(x, 8, 16), QuantConfig{}, PlaneSplit{{4, 4}});
  std::vector<float> out(x.size());
  CHECK_THROWS_AS(decode_planes_fast(encoded, 3, MutableBlockView(out, 8, 16)), std::invalid_argument);
  encoded.planes[1].pop_back();
  CHECK_THROWS_AS(decode_planes_fast(encoded, 2, MutableBlockView(out, 8, 16)), std::invalid_argument);
  CHECK_NOTHROW(decode_planes_fast(encoded, 1, MutableBlockView(out, 8, 16)));
}
