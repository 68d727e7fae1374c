#pragma once
// The timing calibration points of data/calibration/timing/*.csv (timing_calibration.hpp): one
// published measurement a row, under the header
//   group,model,gpu,tp,tokens,context,measured_ms,holdout,source
// group one of the groups TimingModel is calibrated on, tp and tokens >= 1, context >= 0,
// measured_ms > 0, holdout 0 or 1 and a non-empty source. Empty lines are skipped.
//
// Throws std::runtime_error naming the file and line for an unreadable file, a wrong header, a
// malformed row or an unknown group.

#include <filesystem>
#include <vector>

#include "sim/compute/timing_calibration.hpp"

namespace lynxsim::scenario {

std::vector<CalibrationPoint> load_calibration_points(const std::filesystem::path& csv);

}  // namespace lynxsim::scenario
