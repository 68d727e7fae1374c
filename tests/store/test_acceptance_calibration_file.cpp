#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/fields/issues.hpp"
#include "sim/store/acceptance_calibration_file.hpp"

using namespace lynxsim::accuracy;
using namespace lynxsim::store;

namespace {

CalibrationFile sample_file() {
  CalibrationFile f;
  f.seed = 7;
  f.acceptance_samples = 48;
  f.acceptance_stride = 16;
  f.entries = {{"lynx", 1024, 0.8, 0.99, 700}, {"lynx", 4096, 0.7, 0.97, 650}, {"lynx-3+5", 1024, 0.6, 0.9, 500}};
  return f;
}

std::string error_of(const nlohmann::json& value) {
  try {
    calibration_from_json(value, "cal.json");
  } catch (const lynxsim::fields::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the calibration file round-trips through JSON") {
  const CalibrationFile f = sample_file();
  const CalibrationFile back = calibration_from_json(calibration_to_json(f), "x");
  CHECK(back.model == "smollm2-135m");
  CHECK(back.seed == 7);
  CHECK(back.acceptance_samples == 48);
  REQUIRE(back.entries.size() == 3);
  CHECK(back.entries[1].context == 4096);
  CHECK(back.entries[1].real_acceptance == 0.97);
  CHECK(back.entries[2].real_trials == 500);
  CHECK(calibration_to_json(back) == calibration_to_json(f));
}

TEST_CASE("the nearest calibrated context is chosen, the smaller on a tie") {
  const CalibrationFile f = sample_file();
  CHECK(f.nearest("lynx", 100)->context == 1024);
  CHECK(f.nearest("lynx", 3000)->context == 4096);
  CHECK(f.nearest("lynx", 2560)->context == 1024);
  CHECK(f.nearest("lynx", 32768)->context == 4096);
  CHECK(f.nearest("lynx-3+5", 32768)->context == 1024);
  CHECK(f.nearest("lynx-2+6", 1024) == nullptr);
}

TEST_CASE("a malformed calibration file names the document and the JSON path") {
  nlohmann::json j = calibration_to_json(sample_file());
  j["entries"][1]["real_acceptance"] = 1.5;
  j["entries"][0].erase("real_trials");
  j["colour"] = "red";
  const std::string message = error_of(j);
  CHECK(message.find("cal.json") != std::string::npos);
  CHECK(message.find("/entries/1/real_acceptance") != std::string::npos);
  CHECK(message.find("/entries/0/real_trials: missing") != std::string::npos);
  CHECK(message.find("/colour: unknown key") != std::string::npos);
  CHECK(error_of(nlohmann::json::array()).find("expected an object") != std::string::npos);
  nlohmann::json wrong_version = calibration_to_json(sample_file());
  wrong_version["schema_version"] = 2;
  CHECK(error_of(wrong_version).find("/schema_version") != std::string::npos);
}

TEST_CASE("an unreadable or non-JSON calibration file is an input error naming it") {
  const auto dir = std::filesystem::temp_directory_path() / "lynxsim_calibration_test";
  std::filesystem::create_directories(dir);
  const auto bad = dir / "bad.json";
  std::ofstream(bad) << "{ not json";
  CHECK_THROWS_WITH_AS(read_calibration_file(bad), doctest::Contains("bad.json: /: JSON syntax error at line 1"),
                       lynxsim::fields::InputError);
  CHECK_THROWS_WITH_AS(read_calibration_file(dir / "absent.json"), doctest::Contains("absent.json"),
                       std::invalid_argument);
  std::filesystem::remove_all(dir);
}
