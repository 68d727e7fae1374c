#pragma once
// Card files: model cards (models/*.json), hardware profiles (configs/gpus/*.json) and
// serving-engine profiles (configs/engines/*.json), read as input files (input_file.hpp), parsed
// strictly (strict_json.hpp) and read by the card readers (card_reader.hpp).
//
// Every problem of one file is thrown together as one CardError (a ScenarioError of that file),
// whose message has one line per problem, "<file>: <json pointer>: <what was expected>"; the
// application exits with code 2 on it.

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/compute/engine_spec.hpp"
#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"
#include "sim/scenario/scenario_error.hpp"

namespace lynxsim::scenario {

class CardError : public ScenarioError {
public:
  using ScenarioError::ScenarioError;
};

ModelSpec load_model_card(const std::filesystem::path& path);
HardwareSpec load_hardware_profile(const std::filesystem::path& path);
EngineSpec load_engine_profile(const std::filesystem::path& path);

// A card file read and parsed strictly, not yet checked against its schema.
nlohmann::json read_card_json(const std::filesystem::path& path);

// The same schemas read from an object already parsed; `source` names it in each error line in
// place of a file name.
ModelSpec model_card_from_json(const nlohmann::json& card, const std::string& source);
HardwareSpec hardware_profile_from_json(const nlohmann::json& card, const std::string& source);
EngineSpec engine_profile_from_json(const nlohmann::json& card, const std::string& source);

// Every *.json in dir, loaded and sorted by name; the first bad file throws its CardError.
std::vector<ModelSpec> list_model_cards(const std::filesystem::path& dir);
std::vector<HardwareSpec> list_hardware(const std::filesystem::path& dir);
std::vector<EngineSpec> list_engines(const std::filesystem::path& dir);

// The stems of the *.json files in dir, sorted ("" when dir cannot be listed).
std::vector<std::string> card_names(const std::filesystem::path& dir);

}  // namespace lynxsim::scenario
