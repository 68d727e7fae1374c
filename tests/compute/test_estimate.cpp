#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "compute_fixtures.hpp"
#include "sim/compute/estimate.hpp"
#include "sim/compute/static_batch.hpp"
#include "sim/compute/timing_model.hpp"
#include "sim/report/estimate_json.hpp"

namespace lynxsim {
namespace {

TEST_CASE("the estimate for Llama-3.1-8B at 32K on H100 is in the measured range") {
  const Estimate e = build_estimate(test::shipped_model("llama-3.1-8b"),
                                    test::shipped_hardware("h100-sxm"), {32768, 1, 1});
  CHECK(e.prefill_time_s > 1.0);
  CHECK(e.prefill_time_s < 4.0);
  CHECK(e.prefill_bound == Bound::compute);
  CHECK(e.decode_step_time_s > 5e-3);
  CHECK(e.decode_step_time_s < 12e-3);
  CHECK(e.decode_bound == Bound::memory);
  CHECK(e.kv_bytes_per_token == 128 * 1024);
  CHECK(e.fits_in_hbm);
  CHECK(e.prefill_layer.attention_bound == Bound::compute);
  CHECK(e.decode_layer.linear_bound == Bound::memory);
}

TEST_CASE("the estimate renders as JSON with the documented keys and as a table") {
  const Estimate e = build_estimate(test::shipped_model("qwen2.5-7b"),
                                    test::shipped_hardware("a100-80g"), {8192, 4, 8});
  const nlohmann::json j = nlohmann::json::parse(report::estimate_json(e));
  CHECK(j.at("schema_version") == 1);
  CHECK(j.at("prefill_time_s").get<double>() == doctest::Approx(e.prefill_time_s));
  CHECK(j.at("decode_step_time_s").get<double>() == doctest::Approx(e.decode_step_time_s));
  CHECK(j.at("kv_bytes_per_token") == 56 * 1024);
  CHECK(j.at("kv_replication") == 2);
  CHECK(j.at("kv_bytes_per_token_per_rank").get<std::int64_t>() * 8 == 112 * 1024);
  CHECK(j.at("prefill_bound").is_string());
  CHECK(j.at("decode_bound") == "memory");
  CHECK(j.at("prefill_layer").at("allreduce_time_s").get<double>() > 0.0);
  const std::string table = estimate_table(e);
  CHECK(table.find("qwen2.5-7b on a100-80g") != std::string::npos);
  CHECK(table.find("memory-bound") != std::string::npos);
}

TEST_CASE("an estimate with a serving engine takes its step costs in place of the GPU's overheads") {
  const ModelSpec model = test::shipped_model("llama-3.1-8b");
  const HardwareSpec hw = test::shipped_hardware("a100-80g");
  EngineSpec engine;
  engine.name = "graphs";
  engine.step_overhead = Time::from_seconds(1e-3);
  engine.step_overhead_per_sequence = Time::from_seconds(40e-6);
  const Estimate bare = build_estimate(model, hw, {2048, 32, 1});
  const Estimate served = build_estimate(model, hw, {2048, 32, 1}, engine);
  CHECK(bare.engine == "none");
  CHECK(served.engine == "graphs");
  const double layers = model.num_layers;
  const double bare_fixed = layers * hw.layer_overhead.seconds() + hw.step_overhead.seconds();
  CHECK(served.decode_step_time_s ==
        doctest::Approx(bare.decode_step_time_s - bare_fixed + 1e-3 + 32 * 40e-6).epsilon(1e-9));
  CHECK(served.decode_layer.overhead_time_s == 0.0);
  const nlohmann::json j = nlohmann::json::parse(report::estimate_json(served));
  CHECK(j.at("engine") == "graphs");
  CHECK(estimate_table(served).find("engine graphs") != std::string::npos);
}

TEST_CASE("an estimate with output tokens times the static batch run, and JSON has it") {
  const ModelSpec model = test::shipped_model("llama-3.1-8b");
  const HardwareSpec hw = test::shipped_hardware("h100-sxm");
  EstimateRequest req{1024, 16, 1};
  req.output_tokens = 64;
  const Estimate e = build_estimate(model, hw, req);
  const TimingModel timing(model, hw, 1);
  CHECK(e.static_batch_time_s == static_batch_time(timing, {16, 1024, 64}).seconds());
  CHECK(nlohmann::json::parse(report::estimate_json(e)).at("static_batch_time_s").get<double>() ==
        doctest::Approx(e.static_batch_time_s));
  CHECK(estimate_table(e).find("static batch") != std::string::npos);
  const Estimate none = build_estimate(model, hw, {1024, 16, 1});
  CHECK(nlohmann::json::parse(report::estimate_json(none)).at("static_batch_time_s").is_null());
  req.output_tokens = -1;
  CHECK_THROWS_AS(build_estimate(model, hw, req), std::invalid_argument);
}

TEST_CASE("a model too large for one device is flagged") {
  const Estimate e = build_estimate(test::shipped_model("llama-3.1-70b"),
                                    test::shipped_hardware("h100-sxm"), {1024, 1, 1});
  CHECK_FALSE(e.fits_in_hbm);
  CHECK_THROWS_AS(build_estimate(test::shipped_model("llama-3.1-70b"),
                                 test::shipped_hardware("h100-sxm"), {0, 1, 1}),
                  std::invalid_argument);
}

TEST_CASE("a MoE card with MLA is estimated in a scenario's default layout, and a layout can be given") {
  const ModelSpec v3 = test::shipped_model("deepseek-v3");
  const HardwareSpec hw = test::shipped_hardware("h800-sxm");
  const Estimate e = build_estimate(v3, hw, {32768, 1, 16});
  CHECK(e.prefill_layout.attention_dp == 4);
  CHECK(e.prefill_layout.expert_parallel == 16);
  CHECK(e.decode_layout.attention_dp == 16);
  CHECK(e.decode_layout.load_imbalance == kEplbLoadImbalance);
  TimingModel decode(v3, hw, 16);
  decode.set_parallel_layout(e.decode_layout);
  CHECK(e.decode_step_time_s == decode.decode_step(std::vector<int>{32768}).time.seconds());
  TimingModel prefill(v3, hw, 16);
  prefill.set_parallel_layout(e.prefill_layout);
  CHECK(e.prefill_time_s == prefill.prefill(32768).time.seconds());
  const Estimate flat = build_estimate(v3, hw, {32768, 1, 16, 1, 1, 1});
  CHECK(flat.decode_layout.trivial());
  CHECK(flat.prefill_time_s == TimingModel(v3, hw, 16).prefill(32768).time.seconds());
  CHECK(estimate_table(e).find("attention TP4 x DP4, EP16") != std::string::npos);
  CHECK(estimate_table(flat).find("layout") == std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(report::estimate_json(e));
  CHECK(j.at("decode_layout").at("attention_dp") == 16);
  CHECK(j.at("prefill_layout").at("expert_load_imbalance").get<double>() == kEplbLoadImbalance);
  CHECK_THROWS_AS(build_estimate(v3, hw, {32768, 1, 16, 0, 3, 0}), std::invalid_argument);
  CHECK(build_estimate(test::shipped_model("llama-3.1-8b"), hw, {8192, 1, 2}).decode_layout.trivial());
}

}  // namespace
}  // namespace lynxsim
