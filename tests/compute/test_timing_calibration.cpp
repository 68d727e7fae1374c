#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "sim/compute/card_loader.hpp"
#include "sim/compute/timing_calibration.hpp"

namespace lynxsim {
namespace {

const std::filesystem::path kRoot = LYNXSIM_SOURCE_DIR;

std::vector<double> predictions(const std::vector<CalibrationPoint>& points) {
  std::vector<double> out;
  for (const CalibrationPoint& p : points) {
    const std::string model = p.model == "-" ? "llama-3.1-8b" : p.model;
    const ModelSpec m = load_model_card(kRoot / "models" / (model + ".json"));
    const HardwareSpec hw = load_hardware_profile(kRoot / "configs" / "gpus" / (p.gpu + ".json"));
    out.push_back(predict_calibration_ms(p, m, hw));
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

TEST_CASE("the timing model stays within its bounds on the public calibration set and hold-out") {
  const auto points = load_calibration_points(kRoot / "data" / "calibration" / "timing" / "vidur_layers.csv");
  REQUIRE(points.size() > 40);
  for (const CalibrationSummary& s : summarize_calibration(points, predictions(points))) {
    INFO(s.group, s.holdout ? " hold-out" : " calibration");
    const bool collective = s.group == "allreduce";
    CHECK(s.median_error <= (collective ? 0.90 : 0.30));
    CHECK(s.worst_error <= (collective ? 0.95 : 0.60));
  }
}

}  // namespace lynxsim
