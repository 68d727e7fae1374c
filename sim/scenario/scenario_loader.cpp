// load_scenario: file (a regular file of at most kMaxConfigFileBytes) -> strict JSON (syntax errors
// with line and column; depth and duplicate keys checked, strict_json.hpp) -> a named network preset
// expanded (network_preset.hpp) -> named model, GPU and engine cards expanded (card_preset.hpp) ->
// overrides -> parse_scenario. load_scenario_text starts from text in memory.

#include <fmt/format.h>

#include "sim/scenario/card_preset.hpp"
#include "sim/scenario/input_file.hpp"
#include "sim/scenario/network_preset.hpp"
#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/strict_json.hpp"

namespace lynxsim::scenario {
namespace fs = std::filesystem;
namespace {

std::string read_text(const fs::path& file) {
  try {
    return read_input_file(file, kMaxConfigFileBytes);
  } catch (const InputFileError& e) {
    const std::string prefix = file.string() + ": ";
    const std::string what = e.what();
    throw ScenarioError(file.string(), {{"", what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what}});
  }
}

Scenario load_document(const std::string& text, const std::string& name, const fs::path& dir,
                       const std::vector<std::string>& overrides, const DataPaths& data) {
  nlohmann::json document = parse_json_document(text, name);
  IssueList preset_issues;
  expand_network_preset(document, data, dir, preset_issues);
  preset_issues.throw_if_any(name);
  expand_card_presets(document, data);
  IssueList override_issues;
  const auto applied = apply_overrides(document, overrides, override_issues);
  override_issues.throw_if_any(name);
  ParseOptions options{data, dir};
  try {
    return parse_scenario(document, name, options);
  } catch (const ScenarioError& e) {
    throw ScenarioError(e.file(), annotate_overrides(e.issues(), applied));
  }
}

}  // namespace

Scenario load_scenario(const fs::path& file, const std::vector<std::string>& overrides,
                       const DataPaths& data) {
  const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  return load_document(read_text(file), file.string(), dir, overrides, data);
}

Scenario load_scenario_text(const std::string& text, const std::string& source_name,
                            const std::vector<std::string>& overrides, const DataPaths& data) {
  return load_document(text, source_name, fs::path("."), overrides, data);
}

}  // namespace lynxsim::scenario
