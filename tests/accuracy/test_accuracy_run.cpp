#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "accuracy_test_util.hpp"
#include "sim/accuracy/accuracy_run.hpp"
#include "sim/accuracy/accuracy_table.hpp"
#include "sim/store/accuracy_json.hpp"

using namespace lynxsim::accuracy;
using lynxsim::store::result_from_json;
using lynxsim::store::result_to_json;

namespace {

using testing::small_request;

const AccuracyResult& small_result() {
  static const AccuracyResult result = measure_accuracy(small_request());
  return result;
}

double mean_snr(const MethodPrecision& p) { return 0.5 * (p.key_snr_db + p.value_snr_db); }

}  // namespace

TEST_CASE("precision orders int8 = lynx full > lynx anchor ~ int4 > kivi2 on SNR") {
  const AccuracyResult& r = small_result();
  const auto& int8 = r.row("int8");
  const auto& lynx_full = r.row("lynx-4+4");
  const auto& lynx_anchor = r.row("lynx-4+4", "anchor");
  const auto& int4 = r.row("int4");
  CHECK(lynx_full.key_snr_db == int8.key_snr_db);
  CHECK(lynx_full.value_snr_db == int8.value_snr_db);
  CHECK(lynx_full.attention_kl == int8.attention_kl);
  CHECK(mean_snr(int8) > mean_snr(lynx_anchor) + 15.0);
  CHECK(std::abs(mean_snr(lynx_anchor) - mean_snr(int4)) < 1.5);
  CHECK(mean_snr(int4) > mean_snr(r.row("kivi2")) + 2.0);
  CHECK(r.row("bf16").key_snr_db > int8.key_snr_db);
  CHECK(r.row("lynx-qs").attention_kl < r.row("lynx-qs", "anchor").attention_kl);
}

TEST_CASE("needle accuracy does not rise as the context grows") {
  const AccuracyResult& r = small_result();
  for (const auto& row : r.rows) {
    REQUIRE(row.needle.size() == 3);
    CHECK(row.needle.front().context == 1024);
    CHECK(row.needle.back().context == 8192);
    INFO(row.label());
    CHECK(row.needle.back().accuracy() <= row.needle.front().accuracy() + 0.02);
    for (std::size_t i = 1; i < row.needle.size(); ++i) {
      INFO("context ", row.needle[i].context, ", trials ", row.needle[i].trials);
      const double binomial_noise = 1.0 / std::sqrt(static_cast<double>(row.needle[i].trials));
      CHECK(row.needle[i].accuracy() <= row.needle[i - 1].accuracy() + binomial_noise);
    }
  }
  CHECK(r.row("bf16").needle_accuracy() >= r.row("lynx-2+2+4", "anchor").needle_accuracy() + 0.2);
}

TEST_CASE("acceptance probabilities come from anchor versus full agreement") {
  const AccuracyResult& r = small_result();
  REQUIRE(r.acceptance.size() == 6);  // lynx-4+4, lynx-2+2+4, lynx-3+5, lynx-qs, lynx-e4m3-5+3, lynx-nvfp4
  for (const auto& a : r.acceptance) {
    CHECK(a.acceptance_probability >= 0.0);
    CHECK(a.acceptance_probability <= 1.0);
    CHECK(a.samples == 32);
  }
  CHECK(r.acceptance_probability("lynx-4+4") > r.acceptance_probability("lynx-2+2+4"));
  CHECK(r.row("bf16").top1_agreement >= 0.9);
}

TEST_CASE("results do not depend on the thread count and survive a JSON round trip") {
  AccuracyRequest one = small_request();
  one.threads = 1;
  one.methods = {method_from_name("int4"), method_from_name("lynx")};
  AccuracyRequest two = one;
  two.threads = 2;
  const auto a = measure_accuracy(one);
  const auto b = measure_accuracy(two);
  CHECK(result_to_json(a).dump() == result_to_json(b).dump());
  CHECK(result_to_json(result_from_json(result_to_json(a))).dump() == result_to_json(a).dump());
  CHECK(a.row("int4").key_snr_db == small_result().row("int4").key_snr_db);
}

TEST_CASE("the text table lists every method and the acceptance section") {
  const std::string table = render_accuracy_table(small_result());
  for (const auto& row : small_result().rows) CHECK(table.find(row.label()) != std::string::npos);
  CHECK(table.find("speculative acceptance") != std::string::npos);
  CHECK(table.find("needle accuracy by context") != std::string::npos);
}

TEST_CASE("method names parse into presets and bad names are rejected") {
  CHECK(method_from_name("lynx").planes == std::vector<int>{4, 4});
  CHECK(method_from_name("lynx-2+2+4").anchor_bits() == 2);
  CHECK(method_from_name("int3").bits == 3);
  CHECK(bits_per_element(method_from_name("int4"), false, 4096, 128, 32) == doctest::Approx(4.25));
  CHECK(bits_per_element(method_from_name("lynx"), true, 4096, 128, 32) == doctest::Approx(4.25));
  CHECK_THROWS_AS(method_from_name("lynx-4+3"), std::invalid_argument);
  CHECK_THROWS_AS(method_from_name("int9"), std::invalid_argument);
  CHECK_THROWS_AS(method_from_name("fp8"), std::invalid_argument);
  CHECK(sample_indices(32, 4) == std::vector<int>{0, 10, 21, 31});
  CHECK(needle_contexts(32768, 1024) == std::vector<int>{1024, 4096, 16384, 32768});
}

TEST_CASE("the measurement refuses lynx methods it cannot reconstruct") {
  for (const auto& m : default_methods()) CHECK_NOTHROW(check_measurable(m));
  MethodSpec four_bits = method_from_name("lynx");
  four_bits.planes = {2, 2};
  four_bits.bits = 4;
  CHECK_THROWS_AS(check_measurable(four_bits), std::invalid_argument);
  REQUIRE(measurable_problem(four_bits).has_value());
  CHECK(measurable_problem(four_bits)->field == "planes");
  MethodSpec all_planes = method_from_name("lynx-2+6");
  all_planes.decode_after_planes = 2;
  CHECK_THROWS_WITH_AS(check_measurable(all_planes), doctest::Contains("anchor"), std::invalid_argument);
  CHECK(measurable_problem(all_planes)->field == "decode_after_planes");
  MethodSpec qs_all_planes = method_from_name("lynx-qs");
  qs_all_planes.decode_after_planes = 2;
  CHECK(measurable_problem(qs_all_planes)->field == "decode_after_planes");
  MethodSpec deep = method_from_name("cachegen");
  deep.cachegen_level = 9;
  CHECK_THROWS_AS(check_measurable(deep), std::invalid_argument);
  CHECK(measurable_problem(deep)->field == "cachegen_level");
  CHECK_FALSE(measurable_problem(method_from_name("lynx-2+2+4")).has_value());
  CHECK(bits_per_element(method_from_name("lynx-qs"), true, 4096, 128, 32) == doctest::Approx(4.25));
}

TEST_CASE("the FP8 formats are measured by default, and a Lynx split of FP8 decodes to the format when complete") {
  const AccuracyResult& r = small_result();
  for (const char* name : {"fp8-e4m3", "fp8-e5m2", "int8-pth", "fp8-pth"}) {
    CAPTURE(name);
    CHECK(r.row(name).top1_agreement >= 0.5);
  }
  CHECK(r.row("lynx-e4m3-5+3", "full").key_snr_db == r.row("fp8-e4m3").key_snr_db);
  CHECK(r.row("lynx-e4m3-5+3", "anchor").key_snr_db < r.row("fp8-e4m3").key_snr_db);
  CHECK(r.row("fp8-e4m3").key_snr_db > r.row("fp8-e5m2").key_snr_db);  // one more mantissa bit
}
