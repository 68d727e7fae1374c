#include <doctest/doctest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "compute_fixtures.hpp"
#include "sim/compute/estimate.hpp"
#include "sim/compute/timing_model.hpp"
#include "sim/compute/weight_format.hpp"
#include "sim/scenario/card_files.hpp"

namespace lynxsim {
namespace {

ModelSpec with_format(ModelSpec m, WeightFormat f) {
  m.weights = {f, f, f};
  m.weight_bits = value_bits(f);
  return m;
}

OpTiming linear(const ModelSpec& m, const HardwareSpec& hw, int tp, SequenceChunk chunk) {
  return TimingModel(m, hw, tp).layer_breakdown({&chunk, 1}).linear;
}

std::string card_error(nlohmann::json card) {
  try {
    scenario::model_card_from_json(card, "card.json");
  } catch (const scenario::CardError& e) {
    return e.what();
  }
  return "";
}

nlohmann::json shipped_card(const std::string& name) {
  return nlohmann::json::parse(std::ifstream(test::source_path("models/" + name + ".json")));
}

}  // namespace

TEST_CASE("bytes per weight are the values plus the scales of their blocks") {
  CHECK(bytes_per_weight(WeightFormat::bf16) == 2.0);
  CHECK(bytes_per_weight(WeightFormat::fp8) == 1.0);
  CHECK(bytes_per_weight(WeightFormat::fp8_block128) == doctest::Approx(1.0 + 4.0 / (128 * 128)));
  CHECK(bytes_per_weight(WeightFormat::mxfp4) == doctest::Approx(4.25 / 8));   // 4 bits + 8 per 32
  CHECK(bytes_per_weight(WeightFormat::nvfp4) == doctest::Approx(4.5 / 8));    // 4 bits + 8 per 16
  CHECK(bytes_per_weight(WeightFormat::int4_g128) == doctest::Approx((4.0 + 20.0 / 128) / 8));
  for (const char* name : {"bf16", "fp8", "fp8-block128", "mxfp4", "nvfp4", "int4-g128"}) {
    CHECK(std::string(to_string(*weight_format_named(name))) == name);
  }
  CHECK_FALSE(weight_format_named("fp6").has_value());
}

TEST_CASE("each format runs at the precision the GPU has: W8A8 on Hopper, W4A4 on Blackwell, else weight-only") {
  const HardwareSpec h100 = test::shipped_hardware("h100-sxm");
  const HardwareSpec b200 = test::shipped_hardware("b200");
  const HardwareSpec a100 = test::shipped_hardware("a100-80g");
  const auto automatic = GemmDemand::automatic;
  CHECK(gemm_precision(WeightFormat::fp8, automatic, h100) == GemmPrecision::fp8);
  CHECK(gemm_precision(WeightFormat::fp8, automatic, a100) == GemmPrecision::bf16);
  CHECK(gemm_precision(WeightFormat::mxfp4, automatic, h100) == GemmPrecision::bf16);
  CHECK(gemm_precision(WeightFormat::nvfp4, automatic, b200) == GemmPrecision::fp4);
  CHECK(gemm_precision(WeightFormat::int4_g128, automatic, b200) == GemmPrecision::bf16);
  CHECK(gemm_precision(WeightFormat::int4_g128, GemmDemand::fp8, h100) == GemmPrecision::fp8);
  CHECK(gemm_precision(WeightFormat::fp8, GemmDemand::bf16, h100) == GemmPrecision::bf16);
  CHECK(gemm_rate(GemmPrecision::fp4, b200) == doctest::Approx(9000.0 / 2250.0));
  for (const char* gpu : {"h100-sxm", "h200", "h800-sxm", "h20", "l40s", "mi300x", "b200"}) {
    INFO(gpu);
    CHECK(test::shipped_hardware(gpu).peak_fp8.value > 0.0);
  }
  CHECK(a100.peak_fp8.value == 0.0);
  CHECK(a100.peak_fp4.value == 0.0);
  CHECK(h100.peak_fp4.value == 0.0);
  CHECK(precision_conflict(GemmDemand::fp8, a100).find("no peak_fp8") != std::string::npos);
  CHECK(precision_conflict(GemmDemand::fp4, h100).find("no peak_fp4") != std::string::npos);
  CHECK(precision_conflict(GemmDemand::fp4, b200).empty());
  CHECK_THROWS_AS(TimingModel([] {
                    ModelSpec m = with_format(test::shipped_model("llama-3.1-8b"), WeightFormat::fp8);
                    m.gemm_precision = GemmDemand::fp8;
                    return m;
                  }(), a100, 1),
                  std::invalid_argument);
}

TEST_CASE("a compute-bound GEMM at FP8 on H100 takes peak_bf16 / peak_fp8 of its BF16 time") {
  const HardwareSpec hw = test::shipped_hardware("h100-sxm");
  const ModelSpec bf16 = test::shipped_model("llama-3.1-8b");
  const SequenceChunk chunk{16384, 0};
  const OpTiming base = linear(bf16, hw, 1, chunk);
  const OpTiming fp8 = linear(with_format(bf16, WeightFormat::fp8), hw, 1, chunk);
  REQUIRE(base.bound == Bound::compute);
  REQUIRE(fp8.bound == Bound::compute);
  const Time floor = hw.kernel_floor * 4;
  CHECK((fp8.time - floor).seconds() == doctest::Approx(989.4 / 1978.9 * (base.time - floor).seconds()));
  const OpTiming w4a16 = linear(with_format(bf16, WeightFormat::int4_g128), hw, 1, chunk);
  CHECK(w4a16.time == base.time);
  const HardwareSpec b200 = test::shipped_hardware("b200");
  const OpTiming b_base = linear(bf16, b200, 1, chunk);
  const OpTiming b_fp4 = linear(with_format(bf16, WeightFormat::nvfp4), b200, 1, chunk);
  REQUIRE(b_fp4.bound == Bound::compute);
  CHECK((b_fp4.time - floor).seconds() == doctest::Approx(2250.0 / 9000.0 * (b_base.time - floor).seconds()));
}

TEST_CASE("W4A16 decode streams a quarter of the BF16 weight bytes plus the scales") {
  const HardwareSpec hw = test::shipped_hardware("h100-sxm");
  const ModelSpec bf16 = test::shipped_model("llama-3.1-8b");
  const SequenceChunk step{1, 4096};
  const OpTiming base = linear(bf16, hw, 2, step);
  const OpTiming w4 = linear(with_format(bf16, WeightFormat::int4_g128), hw, 2, step);
  REQUIRE(base.bound == Bound::memory);
  REQUIRE(w4.bound == Bound::memory);
  const double params = bf16.linear_params_per_layer() / 2;
  const double activations = base.bytes - 2.0 * params;
  CHECK(w4.bytes - activations == doctest::Approx(params * (0.5 + 2.5 / 128)));
  CHECK((w4.bytes - activations) / (base.bytes - activations) == doctest::Approx(0.25 + 2.5 / 256));
  const Time floor = hw.kernel_floor * 4;
  CHECK((w4.time - floor).seconds() ==
        doctest::Approx(w4.bytes / (hw.hbm_bandwidth.value * hw.memory_efficiency)));
}

TEST_CASE("gpt-oss-120b: MXFP4 experts and BF16 attention, router and LM head, summed by hand") {
  const ModelSpec oss = test::shipped_model("gpt-oss-120b");
  CHECK(oss.weights.attention == WeightFormat::bf16);
  CHECK(oss.weights.ffn == WeightFormat::bf16);
  CHECK(oss.weights.experts == WeightFormat::mxfp4);
  const double attention = 36.0 * 2880 * 64 * (2 * 64 + 2 * 8);
  const double router = 36.0 * 2880 * 128;
  const double experts = 36.0 * 128 * 3 * 2880 * 2880;
  const double head = 201088.0 * 2880;
  const double held = 2.0 * (attention + router) + 4.25 / 8 * experts + 2.0 * head;
  CHECK(held == doctest::Approx(64'009'912'320.0));
  const HardwareSpec hw = test::shipped_hardware("h100-sxm");
  CHECK(TimingModel(oss, hw, 1).weight_bytes_per_rank().as_double() == doctest::Approx(held));
  CHECK(TimingModel(oss, hw, 2).weight_bytes_per_rank().as_double() == doctest::Approx(held / 2));

  const SequenceChunk step{1, 1000};
  const OpTiming mixed = linear(oss, hw, 1, step);
  const OpTiming all_bf16 = linear(with_format(oss, WeightFormat::bf16), hw, 1, step);
  const double read_experts = 4.0 * 3 * 2880 * 2880;  // one token touches top_k = 4 experts
  CHECK(all_bf16.bytes - mixed.bytes == doctest::Approx((2.0 - 4.25 / 8) * read_experts));
  CHECK(mixed.flops == doctest::Approx(all_bf16.flops));

  EstimateRequest request;
  request.context = 1024;
  const Estimate e = build_estimate(oss, test::shipped_hardware("b200"), request);
  REQUIRE(e.weights.size() == 3);
  CHECK(e.weights[2].scheme() == "W4A4");
  CHECK(e.weights[0].scheme() == "W16A16");
  CHECK(estimate_table(e).find("experts mxfp4 (0.5312 B/weight, W4A4 at fp4)") != std::string::npos);
}

TEST_CASE("a mixed card's compute runs each part at its own peak") {
  ModelSpec oss = test::shipped_model("gpt-oss-120b");
  const HardwareSpec b200 = test::shipped_hardware("b200");
  const SequenceChunk chunk{32768, 0};
  const OpTiming mixed = linear(oss, b200, 1, chunk);
  REQUIRE(mixed.bound == Bound::compute);
  const double active_attention = 2880.0 * 64 * (2 * 64 + 2 * 8) + 2880.0 * 128;
  const double active_experts = 4.0 * 3 * 2880 * 2880;
  const double bf16_time = 2.0 * 32768 * (active_attention + active_experts / 4.0);
  const double efficiency = b200.compute_efficiency * 32768 / (32768 + b200.gemm_half_tokens);
  const Time floor = b200.kernel_floor * 4;
  CHECK((mixed.time - floor).seconds() ==
        doctest::Approx(bf16_time / (b200.peak_bf16.value * efficiency)).epsilon(1e-9));
}

TEST_CASE("model cards name their weight format; bad combinations name their JSON path") {
  nlohmann::json card = shipped_card("llama-3.1-8b");
  card["weight_bits"] = 4;
  CHECK(card_error(card).find("card.json: /weight_format: missing field: weight_bits 4") != std::string::npos);
  card["weight_format"] = "mxfp4";
  CHECK(card_error(card).empty());
  const ModelSpec m = scenario::model_card_from_json(card, "card.json");
  CHECK(m.weights.attention == WeightFormat::mxfp4);
  CHECK(m.weight_bits == 4);
  card["weight_bits"] = 8;
  CHECK(card_error(card).find("/weight_bits: expected 4, the value bits of weight_format mxfp4") != std::string::npos);
  card["weight_bits"] = 6;
  CHECK(card_error(card).find("/weight_bits: expected 4, 8 or 16") != std::string::npos);
  card.erase("weight_bits");
  card["weight_format"] = "e2m1";
  CHECK(card_error(card).find("/weight_format: expected one of") != std::string::npos);
  card["weight_format"] = "bf16";
  card["expert_weight_format"] = "mxfp4";
  CHECK(card_error(card).find("/expert_weight_format: expected only on a card with a moe section") !=
        std::string::npos);
  card.erase("expert_weight_format");
  card["gemm_precision"] = "fp8";
  CHECK(card_error(card).find("/gemm_precision: expected a precision the weights can run in") != std::string::npos);
  card["ffn_weight_format"] = "int4-g128";
  CHECK(card_error(card).empty());
  card["gemm_precision"] = "fp4";
  CHECK(card_error(card).find("int4-g128 has no FP4 tensor-core path") != std::string::npos);
  nlohmann::json fp8 = shipped_card("llama-3.1-8b");
  fp8["weight_bits"] = 8;
  CHECK(scenario::model_card_from_json(fp8, "card.json").weights.ffn == WeightFormat::fp8);
}

}  // namespace lynxsim
