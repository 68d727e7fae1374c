#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

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

TEST_CASE("nvfp4, mxfp4 and lynx-nvfp4 are format methods with their blocks, checked against the head dimension") {
  const MethodSpec nv = method_from_name("nvfp4");
  CHECK(nv.family == MethodFamily::scaled);
  CHECK(nv.bits == 4);
  CHECK(kv_format_info(KvFormat::nvfp4).block_elements == 16);
  CHECK(kv_format_info(KvFormat::mxfp4).block_elements == 32);
  CHECK(validate_method(method_from_name("mxfp4")).empty());
  const MethodSpec lynx = method_from_name("lynx-nvfp4");
  CHECK(lynx.family == MethodFamily::lynx);
  CHECK(lynx.planes == std::vector<int>{4, 4});
  CHECK(lynx.anchor_bits() == 4);
  CHECK(lynx.anchor_scheme == AnchorScheme::cell_residual);
  CHECK(validate_method(lynx).empty());
  CHECK(lynx.canonical() != nv.canonical());
  CHECK(head_dim_problem(nv, 40) == "nvfp4 scales blocks of 16 values, which do not divide the model's head dimension 40");
  CHECK(head_dim_problem(method_from_name("mxfp4"), 48).has_value());
  CHECK_FALSE(head_dim_problem(lynx, 128).has_value());
  CHECK(head_dim_problem(lynx, 72).has_value());
  MethodSpec split = lynx;
  split.planes = {2, 6};
  CHECK_FALSE(validate_method(split).empty());
  MethodSpec midpoint = lynx;
  midpoint.anchor_scheme = AnchorScheme::midpoint;
  CHECK_FALSE(validate_method(midpoint).empty());
  MethodSpec integer = method_from_name("lynx");
  integer.anchor_scheme = AnchorScheme::cell_residual;
  CHECK_FALSE(validate_method(integer).empty());
  const auto presets = method_preset_names();
  for (const char* name : {"nvfp4", "mxfp4", "lynx-nvfp4"}) {
    CHECK(std::find(presets.begin(), presets.end(), name) != presets.end());
  }
}
