#pragma once
// The JSON file of the committed acceptance calibration (accuracy::CalibrationFile,
// sim/accuracy/calibration/calibration_table.hpp, which documents the format).

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/accuracy/calibration/calibration_table.hpp"

namespace lynxsim::store {

nlohmann::json calibration_to_json(const accuracy::CalibrationFile& file);
// Read by sim/fields' ObjectReader: throws fields::InputError naming `document`, with the JSON
// path of every problem (exit code 2).
accuracy::CalibrationFile calibration_from_json(const nlohmann::json& value, const std::string& document);
// Reads and checks a file: an unreadable file throws std::invalid_argument naming it, invalid JSON
// (strict_json.hpp) or a malformed calibration fields::InputError naming it.
accuracy::CalibrationFile read_calibration_file(const std::filesystem::path& path);

}  // namespace lynxsim::store
