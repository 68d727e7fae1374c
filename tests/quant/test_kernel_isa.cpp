#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/bit_pack.hpp"
#include "sim/quant/fast_kernels.hpp"
#include "sim/quant/kernel_isa.hpp"
#include "sim/quant/plane_codec.hpp"
#include "sim/quant/quantize.hpp"

using namespace lynxsim::quant;

namespace {

std::vector<KernelIsa> supported_isas() {
  std::vector<KernelIsa> isas{KernelIsa::portable};
  if (kernel_isa_supported(KernelIsa::avx2)) {
    isas.push_back(KernelIsa::avx2);
  }
  return isas;
}

void require_same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE(std::bit_cast<std::uint32_t>(a[i]) == std::bit_cast<std::uint32_t>(b[i]));
  }
}

void check_block(const std::vector<float>& x, int tokens, int channels, const QuantConfig& config, KernelIsa isa) {
  const BlockView view(x, tokens, channels);
  const QuantizedBlock ref = quantize_reference(view, config);
  const QuantizedBlock fast = quantize_fast(view, config, isa);
  REQUIRE(fast.codes == ref.codes);
  REQUIRE(fast.scales == ref.scales);
  REQUIRE(fast.mins == ref.mins);
  std::vector<float> ref_values(x.size());
  std::vector<float> fast_values(x.size());
  dequantize_reference(ref, MutableBlockView(ref_values, tokens, channels));
  dequantize_fast(fast, MutableBlockView(fast_values, tokens, channels), isa);
  require_same_bits(fast_values, ref_values);
}

void check_planes(const std::vector<float>& x, int tokens, int channels, const QuantConfig& config,
                  const PlaneSplit& split, KernelIsa isa) {
  const BlockView view(x, tokens, channels);
  const PlaneEncoded ref = encode_planes_reference(view, config, split);
  const PlaneEncoded fast = encode_planes_fast(view, config, split, isa);
  REQUIRE(fast.planes == ref.planes);
  std::vector<float> ref_values(x.size());
  std::vector<float> fast_values(x.size());
  for (int k = 1; k <= split.num_planes(); ++k) {
    decode_planes_reference(ref, k, MutableBlockView(ref_values, tokens, channels));
    decode_planes_fast(fast, k, MutableBlockView(fast_values, tokens, channels), isa);
    require_same_bits(fast_values, ref_values);
  }
}

// The bit stream of bit_pack.hpp, built one bit at a time.
std::vector<std::uint8_t> bitwise_plane(const std::vector<std::uint8_t>& codes, int shift, int bits) {
  std::vector<std::uint8_t> bytes(packed_bytes(codes.size(), bits), 0);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    for (int b = 0; b < bits; ++b) {
      const std::size_t bit = i * static_cast<std::size_t>(bits) + static_cast<std::size_t>(b);
      const unsigned value = (static_cast<unsigned>(codes[i]) >> (shift + b)) & 1U;
      bytes[bit / 8] = static_cast<std::uint8_t>(bytes[bit / 8] | (value << (bit % 8)));
    }
  }
  return bytes;
}

}  // namespace

TEST_CASE("the portable kernels are always available and unsupported ISAs are refused") {
  CHECK(kernel_isa_supported(KernelIsa::portable));
  CHECK(kernel_isa_supported(best_kernel_isa()));
  CHECK(to_string(KernelIsa::avx2) == "avx2");
  CHECK(parse_kernel_isa("portable") == KernelIsa::portable);
  CHECK(parse_kernel_isa("avx2") == KernelIsa::avx2);
  CHECK_FALSE(parse_kernel_isa("avx512").has_value());
  if (!kernel_isa_supported(KernelIsa::avx2)) {
    std::vector<float> x(64, 1.0F);
    CHECK_THROWS_AS(quantize_fast(BlockView(x, 8, 8), QuantConfig{8, GroupAxis::per_token, 8, false}, KernelIsa::avx2),
                    std::invalid_argument);
  }
}

TEST_CASE("every kernel ISA quantizes like the oracle, with vector bodies and scalar tails") {
  const int tokens = 41;
  const int channels = 136;
  const auto gaussian = quant_test::gaussian_channels(tokens, channels, 5, 21);
  const auto wild = quant_test::wild_values(tokens, channels, 22);
  for (KernelIsa isa : supported_isas()) {
    CAPTURE(to_string(isa));
    for (int bits : {2, 3, 4, 7, 8}) {
      for (GroupAxis axis : {GroupAxis::per_token, GroupAxis::per_channel}) {
        for (int group : {1, 7, 8, 32, 40, 128, 200}) {
          for (bool symmetric : {false, true}) {
            CAPTURE(bits);
            CAPTURE(group);
            check_block(gaussian, tokens, channels, QuantConfig{bits, axis, group, symmetric}, isa);
            check_block(wild, tokens, channels, QuantConfig{bits, axis, group, symmetric}, isa);
          }
        }
      }
    }
  }
}

TEST_CASE("every kernel ISA encodes and decodes planes like the oracle") {
  const int tokens = 45;
  const int channels = 100;
  const auto x = quant_test::wild_values(tokens, channels, 23);
  for (KernelIsa isa : supported_isas()) {
    CAPTURE(to_string(isa));
    for (GroupAxis axis : {GroupAxis::per_token, GroupAxis::per_channel}) {
      for (const PlaneSplit& split : {PlaneSplit{{8}}, PlaneSplit{{4, 4}}, PlaneSplit{{2, 2, 4}}, PlaneSplit{{3, 5}},
                                      PlaneSplit{{1, 1, 2, 4}}, PlaneSplit{{1, 7}}, PlaneSplit{{2, 6}}}) {
        for (int group : {5, 32, 128}) {
          check_planes(x, tokens, channels, QuantConfig{8, axis, group, false}, split, isa);
        }
      }
      check_planes(x, tokens, channels, QuantConfig{4, axis, 32, false}, PlaneSplit{{2, 2}}, isa);
      check_planes(x, tokens, channels, QuantConfig{2, axis, 32, true}, PlaneSplit{{1, 1}}, isa);
    }
  }
}

TEST_CASE("planes are written straight from the quantizer when every group starts on a byte of every plane") {
  const auto targets = [](std::initializer_list<int> widths) {
    PlaneTargets t;
    for (int w : widths) {
      t.plane[t.count++].bits = w;
    }
    return t;
  };
  CHECK(planes_on_byte_boundaries(QuantConfig{8, GroupAxis::per_token, 128, false}, 128, targets({4, 4})));
  CHECK(planes_on_byte_boundaries(QuantConfig{8, GroupAxis::per_token, 200, false}, 136, targets({8})));
  CHECK(planes_on_byte_boundaries(QuantConfig{8, GroupAxis::per_token, 5, false}, 8, targets({8})) == false);
  CHECK(planes_on_byte_boundaries(QuantConfig{8, GroupAxis::per_token, 8, false}, 100, targets({8})) == false);
  CHECK(planes_on_byte_boundaries(QuantConfig{8, GroupAxis::per_token, 8, false}, 64, targets({3, 5})) == false);
  CHECK(planes_on_byte_boundaries(QuantConfig{8, GroupAxis::per_channel, 8, false}, 64, targets({4, 4})) == false);
}

TEST_CASE("every kernel ISA quantizes straight into planes like the oracle, with vector bodies and tails") {
  const int tokens = 7;
  for (int channels : {8, 40, 136, 264}) {
    const auto x = quant_test::wild_values(tokens, channels, 31);
    for (KernelIsa isa : supported_isas()) {
      CAPTURE(to_string(isa));
      CAPTURE(channels);
      for (int group : {8, 24, 32, 40, 128, 300}) {
        CAPTURE(group);
        for (const PlaneSplit& split : {PlaneSplit{{8}}, PlaneSplit{{4, 4}}, PlaneSplit{{2, 2, 4}},
                                        PlaneSplit{{1, 1, 2, 4}}, PlaneSplit{{1, 1, 1, 1, 1, 1, 1, 1}},
                                        PlaneSplit{{4, 2, 2}}}) {
          for (bool symmetric : {false, true}) {
            check_planes(x, tokens, channels, QuantConfig{8, GroupAxis::per_token, group, symmetric}, split, isa);
          }
        }
        check_planes(x, tokens, channels, QuantConfig{4, GroupAxis::per_token, group, false}, PlaneSplit{{2, 2}}, isa);
        check_planes(x, tokens, channels, QuantConfig{4, GroupAxis::per_token, group, true}, PlaneSplit{{4}}, isa);
      }
    }
  }
}

TEST_CASE("every kernel ISA encodes and decodes runs of equal per-token groups like the oracle") {
  // Groups of a multiple of 32 that tile the rows: runs of 16 groups span rows and end part-way.
  for (int channels : {32, 96, 128, 256}) {
    for (int tokens : {1, 6, 37}) {
      const auto x = quant_test::wild_values(tokens, channels, 7);
      for (KernelIsa isa : supported_isas()) {
        CAPTURE(to_string(isa));
        CAPTURE(channels);
        CAPTURE(tokens);
        for (int group : {32, 64, 128, 4096}) {
          if (channels % std::min(group, channels) != 0) {
            continue;
          }
          CAPTURE(group);
          for (const PlaneSplit& split : {PlaneSplit{{8}}, PlaneSplit{{4, 4}}, PlaneSplit{{2, 2, 4}},
                                          PlaneSplit{{1, 1, 2, 4}}, PlaneSplit{{4, 2, 2}}}) {
            for (bool symmetric : {false, true}) {
              check_planes(x, tokens, channels, QuantConfig{8, GroupAxis::per_token, group, symmetric}, split, isa);
            }
          }
          check_planes(x, tokens, channels, QuantConfig{4, GroupAxis::per_token, group, false}, PlaneSplit{{4}}, isa);
          check_planes(x, tokens, channels, QuantConfig{4, GroupAxis::per_token, group, true}, PlaneSplit{{2, 2}}, isa);
        }
      }
    }
  }
}

TEST_CASE("blocks of 1 MiB or more (non-temporal stores) encode to the oracle's bytes and decode to its values") {
  const int tokens = 2048;
  const int channels = 128;
  const auto x = quant_test::gaussian_channels(tokens, channels, 4, 5);
  const std::size_t n = x.size();
  for (const PlaneSplit& split : {PlaneSplit{{8}}, PlaneSplit{{4, 4}}, PlaneSplit{{1, 1, 2, 4}}}) {
    const QuantConfig config{8, GroupAxis::per_token, 128, false};
    const PlaneEncoded encoded = encode_planes_reference(BlockView(x, tokens, channels), config, split);
    for (KernelIsa isa : supported_isas()) {
      CHECK(encode_planes_fast(BlockView(x, tokens, channels), config, split, isa).planes == encoded.planes);
    }
    for (int k = 1; k <= split.num_planes(); ++k) {
      std::vector<float> ref_values(n);
      decode_planes_reference(encoded, k, MutableBlockView(ref_values, tokens, channels));
      for (KernelIsa isa : supported_isas()) {
        CAPTURE(to_string(isa));
        for (std::size_t shift : {0, 1}) {
          CAPTURE(shift);
          std::vector<float> buffer(n + 1, -1.0F);
          const std::span<float> out(buffer.data() + shift, n);
          decode_planes_fast(encoded, k, MutableBlockView(out, tokens, channels), isa);
          require_same_bits(std::vector<float>(out.begin(), out.end()), ref_values);
        }
      }
    }
  }
}

TEST_CASE("encoding into a used output rewrites every plane byte") {
  const int tokens = 9;
  const int channels = 72;
  const auto x = quant_test::gaussian_channels(tokens, channels, 3, 32);
  const BlockView view(x, tokens, channels);
  const QuantConfig config{8, GroupAxis::per_token, 24, false};
  for (KernelIsa isa : supported_isas()) {
    for (const PlaneSplit& split : {PlaneSplit{{8}}, PlaneSplit{{4, 4}}, PlaneSplit{{1, 1, 2, 4}}}) {
      PlaneEncoded reused = encode_planes_fast(view, config, split, isa);
      for (auto& plane : reused.planes) {
        std::fill(plane.begin(), plane.end(), std::uint8_t{0xee});
      }
      encode_planes_fast_into(view, config, split, reused, isa);
      REQUIRE(reused.planes == encode_planes_reference(view, config, split).planes);
    }
  }
}

TEST_CASE("every kernel ISA packs and merges planes of every width, shift and length") {
  quant_test::TestRng rng(41);
  std::vector<std::uint8_t> all(1000);
  for (auto& c : all) {
    c = static_cast<std::uint8_t>(rng.next_u64() & 0xffU);
  }
  for (KernelIsa isa : supported_isas()) {
    for (int bits = 1; bits <= 8; ++bits) {
      for (int shift = 0; shift + bits <= 8; ++shift) {
        for (std::size_t n : {0U, 31U, 32U, 33U, 96U, 1000U}) {
          CAPTURE(bits);
          CAPTURE(shift);
          CAPTURE(n);
          const std::vector<std::uint8_t> codes(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
          std::vector<std::uint8_t> packed(packed_bytes(n, bits), std::uint8_t{0xee});
          pack_shifted_into(codes.data(), n, shift, bits, packed.data(), isa);
          REQUIRE(packed == bitwise_plane(codes, shift, bits));
          std::vector<std::uint8_t> merged(n, 0);
          unpack_merge_into(packed.data(), n, bits, shift, merged.data(), isa);
          for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(merged[i] == (codes[i] & (((1U << bits) - 1U) << shift)));
          }
        }
      }
    }
  }
}

TEST_CASE("every kernel ISA rejects NaN and infinity with the position") {
  for (KernelIsa isa : supported_isas()) {
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                      -std::numeric_limits<float>::infinity()}) {
      std::vector<float> x(40 * 64, 0.5F);
      x[33 * 64 + 45] = bad;
      for (GroupAxis axis : {GroupAxis::per_token, GroupAxis::per_channel}) {
        for (int group : {16, 32, 64}) {
          const QuantConfig config{8, axis, group, false};
          CHECK_THROWS_WITH_AS(quantize_fast(BlockView(x, 40, 64), config, isa),
                               doctest::Contains("token 33, channel 45"), std::invalid_argument);
          CHECK_THROWS_WITH_AS(encode_planes_fast(BlockView(x, 40, 64), config, PlaneSplit{{4, 4}}, isa),
                               doctest::Contains("token 33, channel 45"), std::invalid_argument);
        }
      }
    }
  }
}

TEST_CASE("every kernel ISA rejects group metadata beyond the fp16 range") {
  std::vector<float> x(16 * 16, 1.0F);
  x[5 * 16 + 3] = -1e6F;
  for (KernelIsa isa : supported_isas()) {
    for (GroupAxis axis : {GroupAxis::per_token, GroupAxis::per_channel}) {
      CHECK_THROWS_WITH_AS(quantize_fast(BlockView(x, 16, 16), QuantConfig{8, axis, 8, false}, isa),
                           doctest::Contains("minimum"), std::invalid_argument);
      CHECK_THROWS_WITH_AS(encode_planes_fast(BlockView(x, 16, 16), QuantConfig{8, axis, 8, false}, PlaneSplit{{8}}, isa),
                           doctest::Contains("minimum"), std::invalid_argument);
    }
  }
}
