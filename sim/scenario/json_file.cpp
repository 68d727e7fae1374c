#include "sim/scenario/json_file.hpp"

#include "sim/scenario/input_file.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/strict_json.hpp"

namespace lynxsim::scenario {

nlohmann::json read_json_file(const std::filesystem::path& file) {
  std::string text;
  try {
    text = read_input_file(file, kMaxConfigFileBytes);
  } catch (const InputFileError& e) {
    throw ScenarioError(file.string(), {{"", e.what()}});
  }
  return parse_json_document(text, file.string());
}

}  // namespace lynxsim::scenario
