#include "sim/scenario/calibration_csv.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "sim/scenario/input_file.hpp"

namespace lynxsim::scenario {
namespace {

constexpr const char* kHeader = "group,model,gpu,tp,tokens,context,measured_ms,holdout,source";

std::vector<std::string> split_row(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field);
  return fields;
}

CalibrationPoint parse_row(const std::vector<std::string>& f) {
  if (f.size() != 9) throw std::invalid_argument("expected 9 fields");
  CalibrationPoint p{f[0], f[1], f[2], std::stoi(f[3]), std::stoll(f[4]), std::stoll(f[5]),
                     std::stod(f[6]), f[7] == "1", f[8]};
  const auto groups = calibration_groups();
  if (std::find(groups.begin(), groups.end(), p.group) == groups.end()) {
    throw std::invalid_argument(fmt::format("unknown group '{}'", p.group));
  }
  if (p.tp < 1 || p.tokens < 1 || p.context < 0 || !(p.measured_ms > 0.0) ||
      (f[7] != "0" && f[7] != "1") || p.source.empty()) {
    throw std::invalid_argument("tp, tokens, measured_ms must be positive, holdout 0 or 1, source given");
  }
  return p;
}

std::string read_csv(const std::filesystem::path& csv) {
  try {
    return read_input_file(csv, kMaxConfigFileBytes);
  } catch (const InputFileError&) {
    throw std::runtime_error(fmt::format("{}: cannot read", csv.string()));
  }
}

}  // namespace

std::vector<CalibrationPoint> load_calibration_points(const std::filesystem::path& csv) {
  std::istringstream in(read_csv(csv));
  std::string line;
  if (!std::getline(in, line) || line != kHeader) {
    throw std::runtime_error(fmt::format("{}:1: header must be '{}'", csv.string(), kHeader));
  }
  std::vector<CalibrationPoint> points;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    try {
      points.push_back(parse_row(split_row(line)));
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("{}:{}: {}", csv.string(), number, e.what()));
    }
  }
  return points;
}

}  // namespace lynxsim::scenario
