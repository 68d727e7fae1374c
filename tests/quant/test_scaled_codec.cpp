#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/half_precision.hpp"
#include "sim/quant/scaled_codec.hpp"

using namespace lynxsim::quant;

namespace {

// Every finite FP8 magnitude from the OFP8 definition, independently of fp8_math's bit arithmetic.
double fp8_value_from_spec(int magnitude_code, int mantissa_bits, int bias) {
  const int e = magnitude_code >> mantissa_bits;
  const int m = magnitude_code & ((1 << mantissa_bits) - 1);
  const double fraction = static_cast<double>(m) / static_cast<double>(1 << mantissa_bits);
  return e == 0 ? std::ldexp(fraction, 1 - bias) : std::ldexp(1.0 + fraction, e - bias);
}

struct Spec {
  ElementCode code;
  int mantissa_bits;
  int bias;
  int max_code;
};

constexpr Spec kE4M3{ElementCode::fp8_e4m3, 3, 7, 0x7E};
constexpr Spec kE5M2{ElementCode::fp8_e5m2, 2, 15, 0x7B};

// Nearest finite code by search, ties to the even code, saturating beyond the largest.
std::uint8_t nearest_code(float x, const Spec& s) {
  if (std::isnan(x)) return std::signbit(x) ? 0xFF : 0x7F;
  const double a = std::fabs(static_cast<double>(x));
  const auto sign = static_cast<std::uint8_t>(std::signbit(x) ? 0x80 : 0);
  if (a >= fp8_value_from_spec(s.max_code, s.mantissa_bits, s.bias)) return static_cast<std::uint8_t>(sign | s.max_code);
  int best = 0;
  for (int c = 1; c <= s.max_code; ++c) {
    const double d = std::fabs(fp8_value_from_spec(c, s.mantissa_bits, s.bias) - a);
    const double best_d = std::fabs(fp8_value_from_spec(best, s.mantissa_bits, s.bias) - a);
    if (d < best_d || (d == best_d && (c & 1) == 0)) best = c;
  }
  return static_cast<std::uint8_t>(sign | best);
}

std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }

void require_same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(bits(a[i]) == bits(b[i]));
}

std::vector<KernelIsa> isas() {
  std::vector<KernelIsa> out{KernelIsa::portable};
  if (kernel_isa_supported(KernelIsa::avx2)) out.push_back(KernelIsa::avx2);
  return out;
}

}  // namespace

TEST_CASE("FP8 decoding follows the OFP8 tables for all 256 codes") {
  for (const Spec& s : {kE4M3, kE5M2}) {
    for (int c = 0; c < 256; ++c) {
      const float v = fp8_math::fp8_to_float(static_cast<std::uint8_t>(c), s.code);
      const int magnitude = c & 0x7F;
      if (magnitude > s.max_code) {
        const bool infinity = s.code == ElementCode::fp8_e5m2 && magnitude == 0x7C;
        CHECK((infinity ? std::isinf(v) : std::isnan(v)));
        CHECK(std::signbit(v) == (c >= 0x80));
        continue;
      }
      const double expected = fp8_value_from_spec(magnitude, s.mantissa_bits, s.bias) * (c >= 0x80 ? -1.0 : 1.0);
      REQUIRE(static_cast<double>(v) == expected);
      CHECK(std::signbit(v) == (c >= 0x80));
    }
  }
  CHECK(fp8_math::fp8_to_float(0x7E, ElementCode::fp8_e4m3) == 448.0F);
  CHECK(fp8_math::fp8_to_float(0x7B, ElementCode::fp8_e5m2) == 57344.0F);
  CHECK(fp8_math::fp8_to_float(0x01, ElementCode::fp8_e4m3) == std::ldexp(1.0F, -9));
  CHECK(fp8_math::fp8_to_float(0x01, ElementCode::fp8_e5m2) == std::ldexp(1.0F, -16));
}

TEST_CASE("FP8 encoding of every bf16 and fp16 value is the nearest code, ties to even, saturating") {
  for (const Spec& s : {kE4M3, kE5M2}) {
    for (std::uint32_t h = 0; h < 0x10000; ++h) {
      for (const float x : {bf16_to_float(static_cast<std::uint16_t>(h)), fp16_to_float(static_cast<std::uint16_t>(h))}) {
        const std::uint8_t got = fp8_math::float_to_fp8(x, s.code);
        if (std::isnan(x)) {
          REQUIRE((got & 0x7F) == 0x7F);
          continue;
        }
        REQUIRE(got == nearest_code(x, s));
      }
    }
  }
}

TEST_CASE("FP8 edges: saturation, subnormals, ties, signed zero, NaN") {
  const auto e4 = [](float x) { return fp8_math::float_to_fp8(x, ElementCode::fp8_e4m3); };
  const auto e5 = [](float x) { return fp8_math::float_to_fp8(x, ElementCode::fp8_e5m2); };
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(e4(448.0F) == 0x7E);
  CHECK(e4(464.0F) == 0x7E);  // halfway to the would-be 480: saturates, never NaN
  CHECK(e4(1e30F) == 0x7E);
  CHECK(e4(inf) == 0x7E);
  CHECK(e4(-inf) == 0xFE);
  CHECK(e4(std::nanf("")) == 0x7F);
  CHECK(e4(-0.0F) == 0x80);
  CHECK(e4(0.0F) == 0x00);
  CHECK(e4(std::ldexp(1.0F, -10)) == 0x00);          // half the smallest subnormal: tie to even 0
  CHECK(e4(std::ldexp(1.5F, -10)) == 0x01);
  CHECK(e4(-std::ldexp(1.0F, -11)) == 0x80);         // underflow keeps the sign
  CHECK(e4(std::ldexp(1.0F, -6)) == 0x08);           // smallest normal
  CHECK(e4(std::ldexp(0.9375F, -6)) == 0x08);        // 7.5 subnormal steps: tie rounds up to even 8
  CHECK(e4(1.0625F) == 0x38);                        // tie between 1 and 1.125: even mantissa 0
  CHECK(e4(1.1875F) == 0x3A);                        // tie between 1.125 and 1.25: even mantissa 2
  CHECK(e4(std::numeric_limits<float>::denorm_min()) == 0x00);
  CHECK(e5(57344.0F) == 0x7B);
  CHECK(e5(61440.0F) == 0x7B);
  CHECK(e5(inf) == 0x7B);
  CHECK(e5(-1e38F) == 0xFB);
  CHECK(e5(std::ldexp(1.0F, -16)) == 0x01);
  CHECK(e5(std::ldexp(1.0F, -17)) == 0x00);
  CHECK(e5(-0.0F) == 0x80);
  CHECK(fp8_math::float_to_int8(127.5F) == 127);
  CHECK(fp8_math::float_to_int8(-128.5F) == 0x80);
  CHECK(fp8_math::float_to_int8(2.5F) == 2);
  CHECK(fp8_math::float_to_int8(-2.5F) == 0xFE);
  CHECK(fp8_math::float_to_int8(3.5F) == 4);
}

TEST_CASE("Scaled codecs: optimized kernels equal the reference on shapes crossing rows and vector widths") {
  for (const ElementCode code : {ElementCode::fp8_e4m3, ElementCode::fp8_e5m2, ElementCode::int8}) {
    for (const ScaleScope scope : {ScaleScope::per_tensor, ScaleScope::per_token}) {
      for (const auto& [tokens, channels] : {std::pair{1, 1}, {3, 7}, {5, 8}, {4, 9}, {7, 17}, {33, 64}, {9, 127}, {16, 128}}) {
        const auto x = quant_test::wild_values(tokens, channels, 11U + static_cast<unsigned>(channels));
        const BlockView view(x, tokens, channels);
        for (const float scale : {1.0F, amax_scale(view, code), 1e-3F}) {
          const ScaledConfig config{code, scope, scale};
          const ScaledBlock ref = encode_scaled_reference(view, config);
          std::vector<float> ref_out(x.size());
          decode_scaled_reference(ref, MutableBlockView(ref_out, tokens, channels));
          for (const KernelIsa isa : isas()) {
            const ScaledBlock fast = encode_scaled_fast(view, config, isa);
            REQUIRE(fast.codes == ref.codes);
            REQUIRE(fast.scales == ref.scales);
            std::vector<float> out(x.size());
            decode_scaled_fast(fast, MutableBlockView(out, tokens, channels), isa);
            require_same_floats(out, ref_out);
          }
        }
      }
    }
  }
}

TEST_CASE("Scaled codecs: the AVX2 decoder equals the reference for every code byte") {
  std::vector<std::uint8_t> all(256);
  for (int c = 0; c < 256; ++c) all[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(c);
  for (const ElementCode code : {ElementCode::fp8_e4m3, ElementCode::fp8_e5m2, ElementCode::int8}) {
    for (const float scale : {1.0F, 0.0078125F, 3.7F}) {
      std::vector<float> ref(256);
      for (int c = 0; c < 256; ++c) ref[static_cast<std::size_t>(c)] = fp8_math::decode_element(all[static_cast<std::size_t>(c)], scale, code);
      for (const KernelIsa isa : isas()) {
        std::vector<float> out(256);
        scaled_rows::decode(all.data(), 256, scale, code, out.data(), isa);
        require_same_floats(out, ref);
      }
    }
  }
}

TEST_CASE("Scaled codecs: the AVX2 encoder equals the reference on every bf16 and fp16 value") {
  std::vector<float> x;
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    for (const float v : {bf16_to_float(static_cast<std::uint16_t>(h)), fp16_to_float(static_cast<std::uint16_t>(h))}) {
      if (!std::isnan(v)) x.push_back(v);
    }
  }
  const int n = static_cast<int>(x.size());
  for (const ElementCode code : {ElementCode::fp8_e4m3, ElementCode::fp8_e5m2, ElementCode::int8}) {
    for (const float scale : {1.0F, 0.25F, 1e-6F}) {
      std::vector<std::uint8_t> ref(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) ref[i] = fp8_math::encode_element(x[i], scale, code);
      for (const KernelIsa isa : isas()) {
        std::vector<std::uint8_t> out(x.size());
        scaled_rows::encode(x.data(), n, scale, code, out.data(), isa);
        REQUIRE(out == ref);
      }
    }
  }
}

TEST_CASE("Scaled codecs: zero blocks, per-token scales and error bounds") {
  const std::vector<float> zeros(3 * 16, 0.0F);
  const ScaledBlock z = encode_scaled_reference(BlockView(zeros, 3, 16), {ElementCode::int8, ScaleScope::per_token, 1.0F});
  for (const float s : z.scales) CHECK(s == fp8_math::kMinScale);
  for (const std::uint8_t c : z.codes) CHECK(c == 0);
  CHECK(amax_scale(BlockView(zeros, 3, 16), ElementCode::fp8_e4m3) == fp8_math::kMinScale);

  const auto x = quant_test::wild_values(64, 128, 5);
  const BlockView view(x, 64, 128);
  const ScaledBlock pth = encode_scaled_reference(view, {ElementCode::fp8_e4m3, ScaleScope::per_token, 1.0F});
  std::vector<float> out(x.size());
  decode_scaled_reference(pth, MutableBlockView(out, 64, 128));
  for (int t = 0; t < 64; ++t) {
    float amax = 0.0F;
    for (int c = 0; c < 128; ++c) amax = std::max(amax, std::fabs(view.at(t, c)));
    CHECK(pth.scales[static_cast<std::size_t>(t)] == std::max(amax / 448.0F, fp8_math::kMinScale));
    for (int c = 0; c < 128; ++c) {
      const float v = view.at(t, c);
      const float err = std::fabs(out[static_cast<std::size_t>(t * 128 + c)] - v);
      // Half an ulp of E4M3 (2^-4 relative) in the normal range, half the smallest subnormal below it.
      CHECK(err <= std::max(std::fabs(v) * 0.0625F, std::ldexp(pth.scales[static_cast<std::size_t>(t)], -10)) * 1.0001F);
    }
  }
}

TEST_CASE("Scaled codecs reject non-finite input and bad per-tensor scales") {
  std::vector<float> x(16, 1.0F);
  x[9] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(encode_scaled_reference(BlockView(x, 2, 8), {}), std::invalid_argument);
  CHECK_THROWS_AS(encode_scaled_fast(BlockView(x, 2, 8), {}), std::invalid_argument);
  x[9] = 1.0F;
  for (const float bad : {0.0F, -1.0F, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    CHECK_THROWS_AS(encode_scaled_reference(BlockView(x, 2, 8), {ElementCode::fp8_e4m3, ScaleScope::per_tensor, bad}),
                    std::invalid_argument);
  }
}

TEST_CASE("FP8 anchors decode at the middle of the dropped mantissa interval") {
  const std::vector<float> x{1.0F, 1.875F, -3.0F, 0.0F, 448.0F, std::ldexp(1.0F, -9), 57344.0F, 2.5F};
  const BlockView view(x, 1, 8);
  std::vector<float> out(8);
  const ScaledBlock e4 = encode_scaled_reference(view, {ElementCode::fp8_e4m3, ScaleScope::per_tensor, 1.0F});
  decode_scaled_anchor(e4, 3, MutableBlockView(out, 1, 8));  // 5+3: sign and exponent only
  CHECK(out[0] == 1.5F);
  CHECK(out[1] == 1.5F);
  CHECK(out[2] == -3.0F);
  CHECK(out[3] == std::ldexp(1.0F, -7));  // middle of the subnormal binade [0, 2^-6)
  CHECK(out[4] == 384.0F);
  decode_scaled_anchor(e4, 1, MutableBlockView(out, 1, 8));  // 7+1: the S.1111.11 prefix holds only 448
  CHECK(out[4] == 448.0F);
  decode_scaled_anchor(e4, 2, MutableBlockView(out, 1, 8));  // 6+2
  CHECK(out[0] == 1.25F);  // codes 1, 1.125, 1.25, 1.375 share the kept bits: [1, 1.5)
  CHECK(out[1] == 1.75F);
  CHECK(out[7] == 2.5F);
  const ScaledBlock e5 = encode_scaled_reference(view, {ElementCode::fp8_e5m2, ScaleScope::per_tensor, 1.0F});
  decode_scaled_anchor(e5, 2, MutableBlockView(out, 1, 8));
  CHECK(out[6] == 49152.0F);
  CHECK_THROWS_AS(decode_scaled_anchor(e4, 4, MutableBlockView(out, 1, 8)), std::invalid_argument);
}
