#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <tuple>
#include <fstream>

#include "sim/compute/timing_calibration.hpp"
#include "sim/compute/timing_fit.hpp"
#include "sim/scenario/calibration_csv.hpp"
#include "sim/scenario/card_files.hpp"

namespace lynxsim {
namespace {

using scenario::load_calibration_points;
using scenario::load_hardware_profile;
using scenario::load_model_card;

const std::filesystem::path kRoot = LYNXSIM_SOURCE_DIR;

std::vector<double> predictions(const std::vector<CalibrationPoint>& points) {
  std::vector<double> out;
  for (const CalibrationPoint& p : points) {
    const std::string model = p.model == "-" ? "llama-3.1-8b" : p.model;
    const ModelSpec m = load_model_card(kRoot / "models" / (model + ".json"));
    const HardwareSpec hw = load_hardware_profile(kRoot / "configs" / "gpus" / (p.gpu + ".json"));
    const EngineSpec engine = scenario::load_engine_profile(
        kRoot / "configs" / "engines" / (std::string(calibration_engine(p.group)) + ".json"));
    out.push_back(predict_calibration_ms(p, m, hw, &engine));
  }
  return out;
}

}  // namespace

TEST_CASE("summaries give the median and worst relative error per group and set") {
  std::vector<CalibrationPoint> points(3);
  points[0] = {"allreduce", "-", "a100-80g", 2, 1, 0, 1.0, false, "s"};
  points[1] = {"allreduce", "-", "a100-80g", 2, 1, 0, 2.0, false, "s"};
  points[2] = {"allreduce", "-", "a100-80g", 2, 1, 0, 4.0, true, "s"};
  const auto summary = summarize_calibration(points, {1.1, 1.0, 5.0});
  REQUIRE(summary.size() == 2);
  CHECK(summary[0].points == 2);
  CHECK(summary[0].median_error == doctest::Approx(0.3));
  CHECK(summary[0].worst_error == doctest::Approx(0.5));
  CHECK(summary[1].holdout);
  CHECK(summary[1].worst_error == doctest::Approx(0.25));
}

TEST_CASE("a malformed calibration row names the file and line") {
  const auto path = std::filesystem::temp_directory_path() / "lynxsim-bad-calibration.csv";
  std::ofstream(path) << "group,model,gpu,tp,tokens,context,measured_ms,holdout,source\n"
                      << "prefill,x,y,1,1,0,1.0,0,s\n";
  CHECK_THROWS_WITH(load_calibration_points(path), doctest::Contains(":2: unknown group"));
  std::filesystem::remove(path);
}

struct Bound {
  const char* group;
  double median_calibration, worst_calibration, median_holdout, worst_holdout;
};

// Just above the residuals of the fitted profiles (docs/design.md, "Timing calibration").
constexpr Bound kBounds[] = {
    {"layer_linear_decode", 0.05, 0.12, 0.11, 0.20},
    {"layer_linear_prefill", 0.02, 0.12, 0.08, 0.13},
    {"layer_linear_tp", 0.01, 0.01, 0.07, 0.08},
    {"attention_decode", 0.03, 0.21, 0.08, 0.24},
    {"allreduce", 0.04, 0.21, 0.07, 0.15},
    {"allreduce_engine", 0.0, 0.0, 0.09, 0.13},
    {"prefill_tp", 0.0, 0.0, 0.05, 0.05},
    {"allreduce_small", 0.02, 0.04, 0.0, 0.0},
    {"decode_step", 0.0, 0.0, 0.08, 0.18},
    {"decode_run", 0.07, 0.24, 0.06, 0.24},
    {"decode_run_tp", 0.04, 0.14, 0.06, 0.21},
};

TEST_CASE("the fitted timing model stays within its bounds on the calibration set and hold-out") {
  std::vector<CalibrationPoint> points;
  for (const char* file :
       {"vidur_layers.csv", "vidur_attention_decode.csv", "vidur_allreduce.csv", "nccl_tests_allreduce.csv",
        "vllm_allreduce.csv",
        "nim_ttft.csv", "lmdeploy_decode.csv", "llm_inference_bench_vllm.csv"}) {
    const auto more = load_calibration_points(kRoot / "data" / "calibration" / "timing" / file);
    points.insert(points.end(), more.begin(), more.end());
  }
  REQUIRE(points.size() > 300);
  const auto summary = summarize_calibration(points, predictions(points));
  REQUIRE(summary.size() == 2 * std::size(kBounds) - 4);
  for (const CalibrationSummary& s : summary) {
    INFO(s.group, s.holdout ? " hold-out" : " calibration");
    const Bound* b = std::find_if(std::begin(kBounds), std::end(kBounds),
                                  [&](const Bound& x) { return s.group == x.group; });
    REQUIRE(b != std::end(kBounds));
    CHECK(s.median_error <= (s.holdout ? b->median_holdout : b->median_calibration));
    CHECK(s.worst_error <= (s.holdout ? b->worst_holdout : b->worst_calibration));
  }
}

TEST_CASE("the all-reduce hold-out is the fixed rule: every size bin 2^k with k mod 3 = 2") {
  for (const auto& [file, rows, held] : {std::tuple{"vidur_allreduce.csv", 36, 12},
                                         std::tuple{"nccl_tests_allreduce.csv", 20, 7}}) {
    const auto points = load_calibration_points(kRoot / "data" / "calibration" / "timing" / file);
    REQUIRE(points.size() == static_cast<std::size_t>(rows));
    int holdout = 0;
    for (const CalibrationPoint& p : points) {
      const int k = static_cast<int>(std::floor(std::log2(static_cast<double>(p.tokens))));
      INFO(file, " ", p.gpu, " tp ", p.tp, " bytes ", p.tokens);
      CHECK(p.holdout == (k % 3 == 2));
      holdout += p.holdout ? 1 : 0;
    }
    CHECK(holdout == held);
  }
}

TEST_CASE("fitting recovers the constants a synthetic calibration set was made with") {
  const ModelSpec m = load_model_card(kRoot / "models" / "llama-3.1-8b.json");
  HardwareSpec truth = load_hardware_profile(kRoot / "configs" / "gpus" / "a100-80g.json");
  truth.memory_efficiency = 0.66;
  truth.kernel_floor = Time::from_us(5.0);
  truth.scale_up_efficiency = 0.5;
  truth.scale_up_latency = Time::from_us(20.0);
  truth.scale_up_step_latency = Time::from_us(1.5);
  std::vector<CalibrationPoint> points;
  for (long long tokens : {1, 8, 64, 256, 1024, 4096}) {
    for (int tp : {1, 8}) {
      points.push_back({"layer_linear_tp", "m", truth.name, tp, tokens, 0, 0.0, false, "s"});
    }
  }
  for (long long bytes : {32768, 1048576, 16777216}) {
    for (int tp : {2, 8}) points.push_back({"allreduce", "m", truth.name, tp, bytes, 0, 0.0, false, "s"});
  }
  for (CalibrationPoint& p : points) p.measured_ms = predict_calibration_ms(p, m, truth);
  HardwareSpec start = truth;
  start.memory_efficiency = 0.9;
  start.kernel_floor = Time::from_us(1.0);
  start.scale_up_efficiency = 1.0;
  start.scale_up_latency = Time::from_us(5.0);
  start.scale_up_step_latency = Time::zero();
  const ModelLookup lookup = [&m](const std::string&) -> const ModelSpec& { return m; };
  const HardwareFit fit = fit_hardware(points, lookup, start);
  CHECK(fit.points == static_cast<int>(points.size()));
  CHECK(fit.hardware.memory_efficiency == doctest::Approx(0.66));
  CHECK(fit.hardware.kernel_floor.seconds() == doctest::Approx(5e-6));
  CHECK(fit.hardware.scale_up_efficiency == doctest::Approx(0.5));
  CHECK(fit.hardware.scale_up_latency.seconds() == doctest::Approx(20e-6));
  CHECK(fit.hardware.scale_up_step_latency.seconds() == doctest::Approx(1.5e-6));
  CHECK(fit.hardware.scale_up_ll_latency == Time::zero());
  CHECK(std::none_of(fit.constants.begin(), fit.constants.end(),
                     [](const FittedConstant& c) { return c.name == "scale_up_ll_latency"; }));
}

TEST_CASE("fitting recovers an LL latency where the start profile models NCCL's LL protocol") {
  const ModelSpec m = load_model_card(kRoot / "models" / "llama-3.1-8b.json");
  HardwareSpec truth = load_hardware_profile(kRoot / "configs" / "gpus" / "h100-sxm.json");
  truth.scale_up_efficiency = 0.7;
  truth.scale_up_latency = Time::from_us(25.0);
  truth.scale_up_step_latency = Time::from_us(0.5);
  truth.scale_up_ll_latency = Time::from_us(9.0);
  std::vector<CalibrationPoint> points;
  for (long long bytes : {65536, 262144, 1048576, 4194304, 16777216, 67108864}) {
    for (int tp : {2, 4, 8}) points.push_back({"allreduce", "m", truth.name, tp, bytes, 0, 0.0, false, "s"});
  }
  for (CalibrationPoint& p : points) p.measured_ms = predict_calibration_ms(p, m, truth);
  HardwareSpec start = truth;
  start.scale_up_efficiency = 1.0;
  start.scale_up_latency = Time::from_us(5.0);
  start.scale_up_step_latency = Time::zero();
  start.scale_up_ll_latency = Time::from_us(30.0);
  const ModelLookup lookup = [&m](const std::string&) -> const ModelSpec& { return m; };
  const HardwareFit fit = fit_hardware(points, lookup, start);
  CHECK(fit.hardware.scale_up_efficiency == doctest::Approx(0.7));
  CHECK(fit.hardware.scale_up_latency.seconds() == doctest::Approx(25e-6));
  CHECK(fit.hardware.scale_up_step_latency.seconds() == doctest::Approx(0.5e-6));
  CHECK(fit.hardware.scale_up_ll_latency.seconds() == doctest::Approx(9e-6));
}

}  // namespace lynxsim
