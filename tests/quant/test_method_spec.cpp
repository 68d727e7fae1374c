#include <doctest/doctest.h>

#include <stdexcept>

#include "sim/quant/method_spec.hpp"

using namespace lynxsim::quant;

TEST_CASE("every listed method name parses to a valid method") {
  for (const auto& name : method_preset_names()) {
    CAPTURE(name);
    const MethodSpec m = method_from_name(name);
    CHECK(m.name == name);
    CHECK(validate_method(m).empty());
  }
}

TEST_CASE("the method grammar covers every bit width and split, and refuses the rest") {
  CHECK(method_from_name("int3").bits == 3);
  CHECK(method_from_name("int3").planes == std::vector<int>{3});
  CHECK(method_from_name("kivi8").family == MethodFamily::kivi);
  CHECK(method_from_name("lynx-2+2+4").planes == std::vector<int>{2, 2, 4});
  CHECK(method_from_name("lynx").planes == std::vector<int>{4, 4});
  CHECK(method_from_name("cachegen-3").cachegen_level == 3);
  CHECK(method_from_name("cachegen").cachegen_level == 1);
  for (const char* bad : {"int9", "int1", "int", "kivi9", "lynx-8", "lynx-4+3", "lynx-4+x", "lynx-", "cachegen-4",
                          "fp8", ""}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(method_from_name(bad), std::invalid_argument);
  }
}

TEST_CASE("lynx-qs is a lynx method with QuantSpec's anchor and groups of 128") {
  const MethodSpec qs = method_from_name("lynx-qs");
  CHECK(qs.family == MethodFamily::lynx);
  CHECK(qs.quantspec());
  CHECK(qs.group_size == kQuantSpecDefaultGroup);
  CHECK(qs.speculative());
  CHECK(qs.anchor_bits() == 4);
  CHECK_FALSE(method_from_name("lynx").quantspec());
  CHECK(qs.canonical() != method_from_name("lynx").canonical());
}

TEST_CASE("the anchor is the first decode_after_planes planes") {
  MethodSpec m = method_from_name("lynx-2+2+4");
  CHECK(m.anchor_bits() == 2);
  m.decode_after_planes = 2;
  CHECK(m.anchor_bits() == 4);
  m.decode_after_planes = 3;
  CHECK_FALSE(m.speculative());
  CHECK(method_from_name("int4").anchor_bits() == 4);
}

TEST_CASE("inconsistent methods are explained") {
  MethodSpec bad = method_from_name("lynx");
  bad.planes = {4, 3};
  CHECK_FALSE(validate_method(bad).empty());
  MethodSpec split_int8 = method_from_name("int8");
  split_int8.planes = {4, 4};
  split_int8.decode_after_planes = 1;
  CHECK_FALSE(validate_method(split_int8).empty());
  MethodSpec cachegen = method_from_name("cachegen");
  cachegen.cachegen.chunk_tokens = 0;
  CHECK_FALSE(validate_method(cachegen).empty());
  MethodSpec accept = method_from_name("lynx");
  accept.acceptance = 1.5;
  CHECK_FALSE(validate_method(accept).empty());
}
