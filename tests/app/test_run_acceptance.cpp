#include <doctest/doctest.h>

#include <cmath>

#include "sim/app/run_acceptance.hpp"

using namespace lynxsim;

namespace {

accuracy::CalibrationFile file_of(const std::string& model, double proxy, double real, int trials) {
  accuracy::CalibrationFile f;
  f.model = model;
  f.entries.push_back(accuracy::AcceptanceCalibration{"lynx", 4096, proxy, real, trials});
  return f;
}

}  // namespace

TEST_CASE("acceptance of a calibrated real model: its measured alpha with two binomial standard errors") {
  const std::vector<accuracy::CalibrationFile> files{file_of("smollm2-135m", 0.75, 0.96, 400)};
  const auto a = app::choose_acceptance(0.5, "lynx", "smollm2-135m", 4000, files);
  const double se = std::sqrt(0.96 * 0.04 / 400.0);
  CHECK(a.value == doctest::Approx(0.96));
  CHECK(a.low == doctest::Approx(0.96 - 2.0 * se));
  CHECK(a.high == doctest::Approx(0.96 + 2.0 * se));
  CHECK(a.source == "real smollm2-135m at 4096 tokens");
}

TEST_CASE("acceptance of another model: the lowest transfer of the real models, the range between them") {
  // Miss ratios c = (misses + 1/2) / (trials + 1) / (1 - p): 20.5/1001/0.25 and 100.5/1001/0.5.
  const std::vector<accuracy::CalibrationFile> files{file_of("smollm2-135m", 0.75, 0.98, 1000),
                                                     file_of("gemma3-270m", 0.5, 0.9, 1000)};
  const double c_smol = 20.5 / 1001.0 / 0.25;
  const double c_gemma = 100.5 / 1001.0 / 0.5;
  const auto a = app::choose_acceptance(0.8, "lynx", "llama-3.1-8b", 4096, files);
  CHECK(a.value == doctest::Approx(1.0 - c_gemma * 0.2));
  CHECK(a.low == doctest::Approx(1.0 - c_gemma * 0.2));
  CHECK(a.high == doctest::Approx(1.0 - c_smol * 0.2));
  CHECK(a.source.find("the lowest") != std::string::npos);
  CHECK(a.source.find("gemma3-270m at 4096 tokens") != std::string::npos);
}

TEST_CASE("acceptance of a method no calibration lists: the proxy, with no range") {
  const std::vector<accuracy::CalibrationFile> files{file_of("smollm2-135m", 0.75, 0.98, 1000)};
  const auto a = app::choose_acceptance(0.7, "lynx-3+5", "llama-3.1-8b", 4096, files);
  CHECK(a.value == 0.7);
  CHECK(a.low == 0.7);
  CHECK(a.high == 0.7);
  CHECK(a.source == "proxy");
}
