#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/fp4_math.hpp"
#include "sim/quant/lynx_nvfp4.hpp"

using namespace lynxsim::quant;
namespace fm = lynxsim::quant::fp4_math;

namespace {

std::vector<float> decode(const LynxNvfp4Encoded& e, int planes) {
  std::vector<float> out(e.anchor.codes.size() * 2);
  decode_lynx_nvfp4(e, planes, MutableBlockView(out, e.anchor.tokens, e.anchor.channels));
  return out;
}

double snr_db(const std::vector<float>& x, const std::vector<float>& y) {
  double signal = 0.0;
  double error = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    signal += static_cast<double>(x[i]) * x[i];
    error += (static_cast<double>(x[i]) - y[i]) * (static_cast<double>(x[i]) - y[i]);
  }
  return 10.0 * std::log10(signal / error);
}

}  // namespace

TEST_CASE("lynx-nvfp4 planes: the nvfp4 anchor (4.5 bits) and a 4-bit residual") {
  const auto bytes = lynx_nvfp4_plane_bytes(10, 64);
  CHECK(bytes[0] == 4 + 40 + 320);
  CHECK(bytes[1] == 320);
  const std::vector<float> x = quant_test::gaussian_channels(10, 64, 2, 4);
  const LynxNvfp4Encoded e = encode_lynx_nvfp4(BlockView(x, 10, 64));
  CHECK(e.anchor.scales.size() + e.anchor.codes.size() + sizeof(float) == bytes[0]);
  CHECK(e.residual.size() == bytes[1]);
}

TEST_CASE("lynx-nvfp4 closed form: the residual splits the anchor's rounding cell in 16") {
  std::vector<float> x(16, 0.0F);
  x[0] = 6.0F;
  x[1] = 0.3F;   // anchor 0.5, cell [0.25, 0.75], step 1/32: level 1 -> 0.25 + 1.5/32
  x[2] = -0.1F;  // anchor -0, cell [0, 0.25], step 1/64: level 6 -> -6.5/64
  x[3] = 5.5F;   // anchor 6, cell [5, 7], step 1/8: level 4 -> 5 + 4.5/8
  const LynxNvfp4Encoded e = encode_lynx_nvfp4(BlockView(x, 1, 16), 2688.0F);
  const std::vector<float> full = decode(e, 2);
  CHECK(full[1] == 0.25F + 1.5F / 32);
  CHECK(full[2] == -6.5F / 64);
  CHECK(full[3] == 5.0F + 4.5F / 8);
  CHECK(full[0] == 5.0F + 8.5F / 8);  // 6 is level 8 of [5, 7]
  const std::vector<float> anchor = decode(e, 1);
  CHECK(anchor[1] == 0.5F);
  CHECK(std::signbit(anchor[2]));
}

TEST_CASE("lynx-nvfp4: the anchor is nvfp4 bit for bit; the full code stays within half a residual step") {
  const int tokens = 67;
  const int channels = 128;
  const std::vector<float> x = quant_test::wild_values(tokens, channels, 8);
  const LynxNvfp4Encoded e = encode_lynx_nvfp4(BlockView(x, tokens, channels));
  const Fp4Encoded nv = encode_fp4_reference(BlockView(x, tokens, channels), Fp4Format::nvfp4);
  CHECK(e.anchor.codes == nv.codes);
  CHECK(e.anchor.scales == nv.scales);
  std::vector<float> nv_out(x.size());
  decode_fp4_reference(nv, MutableBlockView(nv_out, tokens, channels));
  const std::vector<float> anchor = decode(e, 1);
  const std::vector<float> full = decode(e, 2);
  const float widths[8] = {0.25F, 0.5F, 0.5F, 0.5F, 0.75F, 1.0F, 1.5F, 2.0F};
  for (std::size_t i = 0; i < x.size(); ++i) {
    REQUIRE(std::bit_cast<std::uint32_t>(anchor[i]) == std::bit_cast<std::uint32_t>(nv_out[i]));
    const float d = fm::nvfp4_block_of_code(e.anchor.scales[i / 16], e.anchor.tensor_scale).decode_scale;
    const int k = (e.anchor.codes[i / 2] >> (4 * (i % 2))) & 7;
    if (std::fabs(x[i]) <= 7.0F * d) {
      REQUIRE(std::fabs(full[i] - x[i]) <= widths[k] / 32 * d * 1.0001F + 1e-30F);
    }
  }
  CHECK(snr_db(x, full) > snr_db(x, anchor) + 20.0);
}

TEST_CASE("lynx-nvfp4 refuses a head dimension that is not a multiple of 16 and a bad plane count") {
  const std::vector<float> x(120, 1.0F);
  CHECK_THROWS_AS(encode_lynx_nvfp4(BlockView(x, 3, 40)), std::invalid_argument);
  const std::vector<float> y(64, 1.0F);
  const LynxNvfp4Encoded e = encode_lynx_nvfp4(BlockView(y, 2, 32));
  std::vector<float> out(64);
  CHECK_THROWS_AS(decode_lynx_nvfp4(e, 3, MutableBlockView(out, 2, 32)), std::invalid_argument);
  CHECK_THROWS_AS(decode_lynx_nvfp4(e, 0, MutableBlockView(out, 2, 32)), std::invalid_argument);
}

TEST_CASE("lynx-nvfp4 AVX2 residual and refinement equal the scalar loops bit for bit") {
  if (!kernel_isa_supported(KernelIsa::avx2)) {
    MESSAGE("skipped: this CPU lacks avx2");
    return;
  }
  struct Shape {
    int tokens, channels;
  };
  for (const Shape s : {Shape{1, 16}, Shape{3, 48}, Shape{37, 128}, Shape{5, 272}, Shape{2051, 128}}) {
    for (std::uint64_t seed : {1U, 2U}) {
      const std::vector<float> x = seed == 1 ? quant_test::wild_values(s.tokens, s.channels, 41)
                                             : quant_test::gaussian_channels(s.tokens, s.channels, 3, 42);
      const BlockView view(x, s.tokens, s.channels);
      const LynxNvfp4Encoded portable = encode_lynx_nvfp4(view, std::nullopt, KernelIsa::portable);
      const LynxNvfp4Encoded avx2 = encode_lynx_nvfp4(view, std::nullopt, KernelIsa::avx2);
      REQUIRE(avx2.residual == portable.residual);
      REQUIRE(avx2.anchor.codes == portable.anchor.codes);
      std::vector<float> a(x.size());
      std::vector<float> b(x.size());
      decode_lynx_nvfp4(portable, 2, MutableBlockView(a, s.tokens, s.channels), KernelIsa::portable);
      decode_lynx_nvfp4(portable, 2, MutableBlockView(b, s.tokens, s.channels), KernelIsa::avx2);
      for (std::size_t i = 0; i < x.size(); ++i) {
        REQUIRE(std::bit_cast<std::uint32_t>(a[i]) == std::bit_cast<std::uint32_t>(b[i]));
      }
    }
  }
}
