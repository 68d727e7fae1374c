#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sim/accuracy/methods/method_codec.hpp"
#include "sim/quant/scaled_codec.hpp"

using namespace lynxsim;
using namespace lynxsim::accuracy;

namespace {

std::vector<float> ramp(int tokens, int channels) {
  std::vector<float> x(static_cast<std::size_t>(tokens) * static_cast<std::size_t>(channels));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37F * static_cast<float>(i)) * (1.0F + static_cast<float>(i % 11));
  return x;
}

}  // namespace

TEST_CASE("KV formats reconstruct through their codec; a calibrated per-tensor scale spans the whole block") {
  const auto x = ramp(24, 16);
  const quant::BlockView block(x, 24, 16);
  for (const char* name : {"fp8-e4m3", "fp8-e5m2", "int8-pth", "fp8-pth", "lynx-e4m3-5+3"}) {
    CAPTURE(name);
    MethodSpec m = method_from_name(name);
    m.tensor_scale.calibrated = true;
    for (const bool anchor : {false, true}) {
      const CodecTarget target{TensorKind::key, anchor, 0, 1};
      const std::vector<float> whole = reconstruct_block(m, target, block);
      std::vector<float> rows(5 * 16);
      reconstruct_rows(m, target, block, 7, 12, rows.data());
      for (std::size_t i = 0; i < rows.size(); ++i) REQUIRE(rows[i] == whole[7 * 16 + i]);
    }
  }
  // fp8-e4m3 with amax: the largest magnitude maps to 448 and back exactly.
  MethodSpec fp8 = method_from_name("fp8-e4m3");
  fp8.tensor_scale.calibrated = true;
  const std::vector<float> out = reconstruct_block(fp8, CodecTarget{}, block);
  float amax = 0.0F;
  std::size_t at = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::fabs(x[i]) > amax) {
      amax = std::fabs(x[i]);
      at = i;
    }
  }
  const float s = amax / 448.0F;
  CHECK(out[at] == std::copysign(448.0F * s, x[at]));
}

TEST_CASE("Lynx over FP8: full equals the format, the anchor differs and ids say so") {
  const MethodSpec lynx = method_from_name("lynx-e4m3-6+2");
  const MethodSpec fp8 = method_from_name("fp8-e4m3");
  CHECK(reconstruction_id(lynx, false) == reconstruction_id(fp8, false));
  CHECK(reconstruction_id(lynx, true) != reconstruction_id(fp8, false));
  CHECK(reconstruction_id(lynx, false) != reconstruction_id(method_from_name("int8"), false));
  CHECK(bits_per_element(lynx, true, 1000, 128, 1) == doctest::Approx(6.0 + 8.0 * 4 / (1000 * 128)));
  CHECK(bits_per_element(method_from_name("int8-pth"), false, 1000, 128, 1) == doctest::Approx(8.0 + 32.0 / 128));
}
