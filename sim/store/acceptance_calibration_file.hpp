#pragma once
// The JSON file of the committed acceptance calibration (accuracy::CalibrationFile,
// sim/accuracy/calibration/calibration_table.hpp, which documents the format).

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/accuracy/calibration/calibration_table.hpp"

namespace lynxsim::store {

nlohmann::json calibration_to_json(const accuracy::CalibrationFile& file);
// Throws std::invalid_argument naming `document` and the JSON path of every problem.
accuracy::CalibrationFile calibration_from_json(const nlohmann::json& value, const std::string& document);
// Reads and checks a file; throws std::invalid_argument (naming the file) when it is unreadable,
// not JSON or malformed.
accuracy::CalibrationFile read_calibration_file(const std::filesystem::path& path);

}  // namespace lynxsim::store
