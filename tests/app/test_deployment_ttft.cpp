#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "sim/app/data_paths.hpp"
#include "sim/app/deployment_ttft.hpp"
#include "sim/scenario/calibration_csv.hpp"

namespace lynxsim::app {
namespace {

const std::filesystem::path kTiming = std::filesystem::path(LYNXSIM_SOURCE_DIR) / "data" /
                                      "calibration" / "timing";

DataPaths data() { return resolve_data_paths(LYNXSIM_SOURCE_DIR, std::nullopt); }

struct DeploymentBound {
  const char* stem;
  double median_calibration, worst_calibration, median_holdout, worst_holdout;
};

// Just above the residuals reported in docs/design.md ("Timing calibration", PD TTFT).
constexpr DeploymentBound kBounds[] = {
    {"mooncake_vllm_pd", 0.09, 0.15, 0.06, 0.14},
    {"mooncake_sglang_pd", 0.02, 0.02, 0.07, 0.11},
};

}  // namespace

TEST_CASE("each PD deployment's TTFT at concurrency 1 stays within its bounds") {
  for (const DeploymentBound& b : kBounds) {
    const std::filesystem::path csv = kTiming / (std::string(b.stem) + ".csv");
    const auto points = scenario::load_calibration_points(csv);
    REQUIRE(points.size() == 9);
    std::vector<double> predicted;
    for (const CalibrationPoint& p : points) {
      predicted.push_back(deployment_ttft(data(), kTiming / (std::string(b.stem) + ".json"), p).ms);
    }
    for (const CalibrationSummary& s : summarize_calibration(points, predicted)) {
      INFO(b.stem, s.holdout ? " hold-out" : " calibration");
      CHECK(s.group == "pd_ttft");
      CHECK(s.median_error <= (s.holdout ? b.median_holdout : b.median_calibration));
      CHECK(s.worst_error <= (s.holdout ? b.worst_holdout : b.worst_calibration));
    }
  }
}

TEST_CASE("a deployment's TTFT names the serving engine it ran with") {
  const auto points = scenario::load_calibration_points(kTiming / "mooncake_sglang_pd.csv");
  CHECK(deployment_ttft(data(), kTiming / "mooncake_sglang_pd.json", points.at(0)).engine == "sglang");
}

TEST_CASE("a longer prompt never gives a deployment an earlier first token") {
  const auto points = scenario::load_calibration_points(kTiming / "mooncake_vllm_pd.csv");
  double last = 0.0;
  for (const CalibrationPoint& p : points) {
    const double ttft = deployment_ttft(data(), kTiming / "mooncake_vllm_pd.json", p).ms;
    CHECK(ttft > last);
    last = ttft;
  }
}

TEST_CASE("a row whose model or GPU is not its deployment's is refused, naming both") {
  CalibrationPoint p{"pd_ttft", "llama-3.1-8b", "h800-sxm", 8, 1024, 16, 50.0, true, "s"};
  CHECK_THROWS_WITH(deployment_ttft(data(), kTiming / "mooncake_vllm_pd.json", p),
                    doctest::Contains("runs qwen3-8b on h800-sxm at TP 8, its row names llama-3.1-8b"));
}

}  // namespace lynxsim::app
