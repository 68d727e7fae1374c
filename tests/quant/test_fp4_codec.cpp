#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/fp4_codec.hpp"
#include "sim/quant/fp4_math.hpp"

using namespace lynxsim::quant;
namespace fm = lynxsim::quant::fp4_math;

namespace {

std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }

std::vector<float> decoded(const Fp4Encoded& e, KernelIsa isa) {
  std::vector<float> out(static_cast<std::size_t>(e.tokens) * static_cast<std::size_t>(e.channels), 7.0F);
  decode_fp4(e, MutableBlockView(out, e.tokens, e.channels), isa);
  return out;
}

// The AVX2 kernels against the oracle: the same scale, code and value bits.
void check_isas_agree(const std::vector<float>& x, int tokens, int channels, Fp4Format format,
                      std::optional<float> tensor_amax = std::nullopt) {
  const BlockView view(x, tokens, channels);
  const Fp4Encoded ref = encode_fp4_reference(view, format, tensor_amax);
  std::vector<float> ref_out(x.size());
  decode_fp4_reference(ref, MutableBlockView(ref_out, tokens, channels));
  for (KernelIsa isa : {KernelIsa::portable, KernelIsa::avx2}) {
    if (!kernel_isa_supported(isa)) {
      MESSAGE("skipped: this CPU lacks " << to_string(isa));
      continue;
    }
    const Fp4Encoded fast = encode_fp4(view, format, isa, tensor_amax);
    REQUIRE(bits(fast.tensor_scale) == bits(ref.tensor_scale));
    REQUIRE(fast.scales == ref.scales);
    REQUIRE(fast.codes == ref.codes);
    const std::vector<float> out = decoded(ref, isa);
    for (std::size_t i = 0; i < x.size(); ++i) {
      REQUIRE(bits(out[i]) == bits(ref_out[i]));
    }
  }
}

}  // namespace

TEST_CASE("E2M1: every code round-trips, ties go to the even code, saturation at 6") {
  for (int code = 0; code < 16; ++code) {
    const float v = fm::e2m1_value(static_cast<std::uint8_t>(code));
    CHECK(fm::e2m1_code(v) == code);
  }
  CHECK(bits(fm::e2m1_value(8)) == bits(-0.0F));
  const float ties[7] = {0.25F, 0.75F, 1.25F, 1.75F, 2.5F, 3.5F, 5.0F};
  const int tie_codes[7] = {0, 2, 2, 4, 4, 6, 6};
  for (int k = 0; k < 7; ++k) {
    CHECK(fm::e2m1_code(ties[k]) == tie_codes[k]);
    CHECK(fm::e2m1_code(-ties[k]) == (tie_codes[k] | 8));
  }
  CHECK(fm::e2m1_code(6.9F) == 7);
  CHECK(fm::e2m1_code(-1e30F) == 15);
  CHECK(fm::e2m1_code(-0.1F) == 8);
  CHECK(fm::e2m1_code(-0.0F) == 8);
  CHECK(fm::e2m1_code(0.26F) == 1);
}

TEST_CASE("E4M3: every finite code round-trips; subnormals, ties and saturation") {
  for (int code = 0; code <= 0x7E; ++code) {
    CHECK(fm::e4m3_code(fm::e4m3_value(static_cast<std::uint8_t>(code))) == code);
  }
  CHECK(fm::e4m3_value(0x7E) == 448.0F);
  CHECK(fm::e4m3_value(1) == std::ldexp(1.0F, -9));
  CHECK(fm::e4m3_value(8) == std::ldexp(1.0F, -6));
  CHECK(std::isnan(fm::e4m3_value(0x7F)));
  CHECK(fm::e4m3_code(std::ldexp(1.0F, -10)) == 0);         // tie between 0 and 2^-9
  CHECK(fm::e4m3_code(std::ldexp(3.0F, -10)) == 2);         // tie between 1 and 2 steps
  CHECK(fm::e4m3_code(std::ldexp(1.0F, -11)) == 0);
  CHECK(fm::e4m3_code(1.0625F) == 0x38);                    // tie between 1 and 1.125
  CHECK(fm::e4m3_code(1.1875F) == 0x3A);                    // tie between 1.125 and 1.25
  CHECK(fm::e4m3_code(464.0F) == 0x7E);
  CHECK(fm::e4m3_code(1e30F) == 0x7E);
  CHECK(fm::e4m3_code(0.0F) == 0);
}

TEST_CASE("E8M0: values, code 0 is 2^-127, 0xFF is NaN") {
  CHECK(fm::e8m0_value(127) == 1.0F);
  CHECK(fm::e8m0_value(0) == std::ldexp(1.0F, -127));
  CHECK(fm::e8m0_value(254) == std::ldexp(1.0F, 127));
  CHECK(std::isnan(fm::e8m0_value(0xFF)));
  CHECK(fm::mxfp4_scale_code(bits(12.0F)) == 128);  // floor(log2 12) - 2 = 1
  CHECK(fm::mxfp4_scale_code(0) == 0);
}

TEST_CASE("nvfp4 closed form: tensor amax 2688 gives s2 = 1 and a block of amax 6 keeps its values") {
  const std::vector<float> x = {6.0F, -3.0F, 1.25F, 0.75F, -0.0F, 5.0F, 0.2F, -0.3F,
                                2.5F, 3.5F, 1.75F, 4.4F, -6.0F, 0.5F, 1.0F, 1.5F};
  const Fp4Encoded e = encode_fp4_reference(BlockView(x, 1, 16), Fp4Format::nvfp4, 2688.0F);
  CHECK(e.tensor_scale == 1.0F);
  REQUIRE(e.scales.size() == 1);
  CHECK(e.scales[0] == 0x38);
  const std::uint8_t expected[16] = {7, 13, 2, 2, 8, 6, 0, 9, 4, 6, 4, 6, 15, 1, 2, 3};
  for (int i = 0; i < 16; ++i) {
    CHECK(((e.codes[static_cast<std::size_t>(i / 2)] >> (4 * (i % 2))) & 15) == expected[i]);
  }
  const Fp4Encoded own = encode_fp4_reference(BlockView(x, 1, 16), Fp4Format::nvfp4);
  CHECK(own.tensor_scale == 6.0F / 2688.0F);
  CHECK(own.scales[0] == 0x7E);
}

TEST_CASE("mxfp4 closed form: amax 12 gives X = 2; (6, 8) saturates to 6") {
  std::vector<float> x(32, 0.0F);
  x[0] = 12.0F;
  x[1] = -7.0F;
  x[2] = 2.9F;
  x[3] = 13.0F;
  const Fp4Encoded e = encode_fp4_reference(BlockView(x, 1, 32), Fp4Format::mxfp4);
  CHECK(e.scales[0] == 128);
  CHECK(e.codes[0] == (7 | (14 << 4)));  // 12/2 = 6; -7/2 = -3.5, a tie, goes to -4 (even code 6)
  CHECK(e.codes[1] == (3 | (7 << 4)));   // 2.9/2 = 1.45 -> 1.5; 13/2 = 6.5 saturates at 6
  std::vector<float> out(32);
  decode_fp4_reference(e, MutableBlockView(out, 1, 32));
  CHECK(out[0] == 12.0F);
  CHECK(out[1] == -8.0F);
  CHECK(out[3] == 12.0F);
}

TEST_CASE("AVX2 kernels equal the oracle on shapes that cross block, head and token boundaries") {
  struct Shape {
    int tokens, channels;
  };
  for (Fp4Format format : {Fp4Format::nvfp4, Fp4Format::mxfp4}) {
    for (const Shape s : {Shape{1, 32}, Shape{5, 64}, Shape{37, 96}, Shape{130, 128}, Shape{3, 160}, Shape{9, 256}}) {
      CAPTURE(to_string(format));
      CAPTURE(s.tokens);
      CAPTURE(s.channels);
      check_isas_agree(quant_test::wild_values(s.tokens, s.channels, 11), s.tokens, s.channels, format);
      check_isas_agree(quant_test::gaussian_channels(s.tokens, s.channels, 3, 12), s.tokens, s.channels, format);
      check_isas_agree(quant_test::gaussian_channels(s.tokens, s.channels, 0, 13), s.tokens, s.channels, format, 3.0F);
    }
  }
  check_isas_agree(quant_test::wild_values(7, 48, 14), 7, 48, Fp4Format::nvfp4);
  // Large enough for the decoders' non-temporal stores (2^18 floats and more).
  for (Fp4Format format : {Fp4Format::nvfp4, Fp4Format::mxfp4}) {
    check_isas_agree(quant_test::wild_values(2051, 128, 16), 2051, 128, format);
  }
  check_isas_agree(quant_test::wild_values(11, 16, 15), 11, 16, Fp4Format::nvfp4, 0.0F);
}

namespace {

// 16 tokens x 128 channels whose blocks each test one edge: zero, negative zero, tiny (E4M3
// subnormal scales and underflow to zero), float32 subnormals, a huge outlier block.
std::vector<float> edge_values() {
  quant_test::TestRng rng(21);
  std::vector<float> x(16 * 128);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::size_t block = i / 32;
    const float z = static_cast<float>(rng.normal());
    const float scales[8] = {0.0F, 1.0F, 1e-4F, 1e-6F, 1e-9F, 1e-40F, 1e30F, 3.0F};
    x[i] = z * scales[block % 8];
    if (block % 8 == 1) {
      x[i] = (i % 2 == 0) ? -0.0F : 0.0F;
    }
  }
  return x;
}

}  // namespace

TEST_CASE("edges: zero and negative-zero blocks, subnormal block scales, tiny and huge amax") {
  const std::vector<float> x = edge_values();
  for (Fp4Format format : {Fp4Format::nvfp4, Fp4Format::mxfp4}) {
    CAPTURE(to_string(format));
    check_isas_agree(x, 16, 128, format);
    check_isas_agree(x, 16, 128, format, 1e30F);
    std::vector<float> scaled = x;
    for (float& v : scaled) {
      v *= 1e-8F;
    }
    check_isas_agree(scaled, 16, 128, format);
    std::vector<float> huge = x;
    for (float& v : huge) {
      v = v * 3e7F;
    }
    check_isas_agree(huge, 16, 128, format);
    const Fp4Encoded e = encode_fp4_reference(BlockView(x, 16, 128), format);
    std::vector<float> out(x.size());
    decode_fp4_reference(e, MutableBlockView(out, 16, 128));
    for (std::size_t i = 0; i < 32; ++i) {
      CHECK(out[i] == 0.0F);
    }
    for (std::size_t i = 32; i < 64; ++i) {
      CHECK(std::signbit(out[i]) == (i % 2 == 0));
      CHECK(out[i] == 0.0F);
    }
  }
}

TEST_CASE("nvfp4: block scales below 2^-6 are E4M3 subnormals; below 2^-10 the block is zero") {
  std::vector<float> x(64, 0.0F);
  x[0] = 2688.0F;       // tensor amax: s2 = 1
  x[16] = 0.06F;        // 0.06/6 = 0.01 -> E4M3 subnormal 5·2^-9
  x[32] = 0.004F;       // 0.004/6 = 6.7e-4 -> 2^-9 · 0.34 -> 0
  x[33] = -0.001F;
  x[48] = 6.0F / 1024;  // exactly 2^-10: a tie, to 0
  const Fp4Encoded e = encode_fp4_reference(BlockView(x, 1, 64), Fp4Format::nvfp4);
  CHECK(e.tensor_scale == 1.0F);
  CHECK(e.scales[1] == 5);
  CHECK(e.scales[2] == 0);
  CHECK(e.scales[3] == 0);
  CHECK(e.codes[16] == (0 | (8 << 4)));  // the block became +0, -0
  check_isas_agree(x, 1, 64, Fp4Format::nvfp4);
}

TEST_CASE("decoders turn E8M0 0xFF and E4M3 0x7F scales into NaN blocks") {
  std::vector<float> x(64, 1.0F);
  for (Fp4Format format : {Fp4Format::nvfp4, Fp4Format::mxfp4}) {
    Fp4Encoded e = encode_fp4_reference(BlockView(x, 1, 64), format);
    e.scales[0] = format == Fp4Format::nvfp4 ? 0x7F : 0xFF;
    for (KernelIsa isa : {KernelIsa::portable, KernelIsa::avx2}) {
      if (!kernel_isa_supported(isa)) {
        continue;
      }
      const std::vector<float> out = decoded(e, isa);
      CHECK(std::isnan(out[0]));
      CHECK(out[63] == 1.0F);
    }
  }
}

TEST_CASE("non-finite input, a bad tensor amax and a head dimension the block does not divide are refused") {
  std::vector<float> x(128, 1.0F);
  x[77] = std::numeric_limits<float>::quiet_NaN();
  for (Fp4Format format : {Fp4Format::nvfp4, Fp4Format::mxfp4}) {
    for (KernelIsa isa : {KernelIsa::portable, best_kernel_isa()}) {
      CHECK_THROWS_WITH_AS(encode_fp4(BlockView(x, 2, 64), format, isa), doctest::Contains("token 1, channel 13"),
                           std::invalid_argument);
    }
  }
  x[77] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_AS(encode_fp4(BlockView(x, 2, 64), Fp4Format::nvfp4, best_kernel_isa(), 1.0F), std::invalid_argument);
  x[77] = 1.0F;
  CHECK_THROWS_AS(encode_fp4(BlockView(x, 2, 64), Fp4Format::nvfp4, best_kernel_isa(), -1.0F), std::invalid_argument);
  CHECK_THROWS_AS(encode_fp4(BlockView(x, 2, 64), Fp4Format::nvfp4, best_kernel_isa(),
                             std::numeric_limits<float>::quiet_NaN()),
                  std::invalid_argument);
  CHECK(fp4_layout_problem(Fp4Format::nvfp4, 40) == "head dimension 40 is not a multiple of nvfp4's block of 16 elements");
  CHECK(fp4_layout_problem(Fp4Format::mxfp4, 48).has_value());
  CHECK_FALSE(fp4_layout_problem(Fp4Format::mxfp4, 64).has_value());
  CHECK_FALSE(fp4_layout_problem(Fp4Format::nvfp4, 48).has_value());
  const std::vector<float> head40(120, 1.0F);
  CHECK_THROWS_AS(encode_fp4(BlockView(head40, 3, 40), Fp4Format::nvfp4), std::invalid_argument);
  CHECK_THROWS_AS(encode_fp4(BlockView(x, 8, 16), Fp4Format::mxfp4), std::invalid_argument);
}

TEST_CASE("wire bytes: nvfp4 4.5 bits plus a 4-byte tensor scale, mxfp4 4.25 bits") {
  const Fp4WireBytes nv = fp4_wire_bytes(Fp4Format::nvfp4, 10, 64);
  CHECK(nv.tensor_scale == 4);
  CHECK(nv.block_scales == 40);
  CHECK(nv.codes == 320);
  CHECK(nv.total() == 364);
  const Fp4WireBytes mx = fp4_wire_bytes(Fp4Format::mxfp4, 10, 64);
  CHECK(mx.total() == 20 + 320);
  const std::vector<float> x = quant_test::wild_values(10, 64, 3);
  const Fp4Encoded e = encode_fp4(BlockView(x, 10, 64), Fp4Format::nvfp4);
  CHECK(e.scales.size() + e.codes.size() + sizeof(float) == nv.total());
  CHECK(parse_fp4_format("mxfp4") == Fp4Format::mxfp4);
  CHECK_FALSE(parse_fp4_format("fp4").has_value());
}

TEST_CASE("AVX2 E2M1 rounding equals the threshold comparisons at, below and above every threshold") {
  // mxfp4 with amax in [4, 8) has X = 1, so the elements are rounded as they are: each block of 32
  // starts with 7.5.
  std::vector<float> values;
  for (float t : fm::kE2m1Thresholds) {
    for (float v : {t, std::nextafter(t, 0.0F), std::nextafter(t, 10.0F)}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }
  for (float v : {0.0F, -0.0F, 1e-45F, 6.0F, 7.99F, 7.0F, 6.5F, 1.0F, 2.0F, 4.0F}) {
    values.push_back(v);
  }
  std::vector<float> x(64, 0.125F);
  for (std::size_t i = 0, next = 0; i < x.size() && next < values.size(); ++i) {
    x[i] = i % 32 == 0 ? 7.5F : values[next++];
  }
  REQUIRE(encode_fp4_reference(BlockView(x, 1, 64), Fp4Format::mxfp4).scales == std::vector<std::uint8_t>{127, 127});
  check_isas_agree(x, 1, 64, Fp4Format::mxfp4);
  std::vector<float> sixteen(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    sixteen[i] = x[i] * 16.0F;
  }
  check_isas_agree(sixteen, 2, 32, Fp4Format::nvfp4, 16.0F * 2688.0F);
}

TEST_CASE("an amax of FLT_MAX codes and decodes to finite values in both formats") {
  std::vector<float> x(64, 1.0F);
  x[0] = std::numeric_limits<float>::max();
  x[1] = -std::numeric_limits<float>::max();
  x[40] = 0.7F * std::numeric_limits<float>::max();
  for (Fp4Format format : {Fp4Format::nvfp4, Fp4Format::mxfp4}) {
    check_isas_agree(x, 1, 64, format);
    const Fp4Encoded e = encode_fp4_reference(BlockView(x, 1, 64), format);
    std::vector<float> out(64);
    decode_fp4_reference(e, MutableBlockView(out, 1, 64));
    for (float v : out) {
      CHECK(std::isfinite(v));
    }
    CHECK(out[0] > 0.5F * std::numeric_limits<float>::max());
  }
}
