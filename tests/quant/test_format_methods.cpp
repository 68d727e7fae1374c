#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "sim/quant/method_spec.hpp"

using namespace lynxsim::quant;

TEST_CASE("KV format names are scaled methods of one plane of the format's code") {
  for (const KvFormatInfo& info : kv_formats()) {
    CAPTURE(info.name);
    const MethodSpec m = method_from_name(info.name);
    CHECK(m.family == MethodFamily::scaled);
    CHECK(m.format == info.format);
    CHECK(m.planes == std::vector<int>{info.code_bits});
    CHECK_FALSE(m.speculative());
    CHECK(validate_method(m).empty());
  }
  CHECK(kv_format_info(KvFormat::fp8_pth).scales == ScaleLayout::per_token_head);
  CHECK(kv_format_info(KvFormat::fp8_e5m2).scales == ScaleLayout::per_tensor);
}

TEST_CASE("Lynx splits of an FP8 code keep sign and exponent in the anchor") {
  const MethodSpec m = method_from_name("lynx-e4m3-5+3");
  CHECK(m.family == MethodFamily::lynx);
  CHECK(m.format == KvFormat::fp8_e4m3);
  CHECK(m.planes == std::vector<int>{5, 3});
  CHECK(m.anchor_bits() == 5);
  CHECK(validate_method(method_from_name("lynx-e4m3-6+2")).empty());
  CHECK(validate_method(method_from_name("lynx-e5m2-6+2")).empty());
  CHECK(validate_method(method_from_name("lynx-e4m3-5+1+2")).empty());
  CHECK_FALSE(validate_method(method_from_name("lynx-e4m3-4+4")).empty());  // drops an exponent bit
  CHECK_FALSE(validate_method(method_from_name("lynx-e5m2-5+3")).empty());
  for (const char* bad : {"lynx-e4m3-8", "lynx-e4m3-4+3", "lynx-e4m3-", "lynx-e4m3-5+", "lynx-int8-pth-4+4",
                          "fp8-e4m2"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(method_from_name(bad), std::invalid_argument);
  }
}

TEST_CASE("A format method's scale and width are checked, and change its canonical text") {
  MethodSpec m = method_from_name("fp8-e4m3");
  for (const double bad : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    m.tensor_scale = {false, bad};
    CHECK_FALSE(validate_method(m).empty());
  }
  m.tensor_scale = {true, 0.0};
  CHECK(validate_method(m).empty());
  CHECK(m.canonical() != method_from_name("fp8-e4m3").canonical());
  MethodSpec wide = method_from_name("int8-pth");
  wide.bits = 4;
  wide.planes = {4};
  CHECK_FALSE(validate_method(wide).empty());
  MethodSpec qs = method_from_name("lynx-e4m3-5+3");
  qs.anchor_scheme = AnchorScheme::quantspec;
  CHECK_FALSE(validate_method(qs).empty());
  MethodSpec int_with_format = method_from_name("int8");
  int_with_format.format = KvFormat::fp8_e4m3;
  CHECK_FALSE(validate_method(int_with_format).empty());
  CHECK_FALSE(head_dim_problem(method_from_name("fp8-e4m3"), 96).has_value());
}
