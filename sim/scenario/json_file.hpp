#pragma once
// A JSON input file of the planning data (search files, price and energy tables): read as a
// configuration file (input_file.hpp, kMaxConfigFileBytes) and parsed strictly (strict_json.hpp);
// a file that cannot be read or parsed is a ScenarioError of that file (exit 2).

#include <filesystem>

#include <nlohmann/json.hpp>

namespace lynxsim::scenario {

nlohmann::json read_json_file(const std::filesystem::path& file);

}  // namespace lynxsim::scenario
