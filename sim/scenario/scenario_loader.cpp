// load_scenario: file (a regular file of at most kMaxConfigFileBytes) -> strict JSON (syntax errors
// with line and column; depth and duplicate keys checked, strict_json.hpp) -> a named network preset
// expanded (network_preset.hpp) -> named model, GPU and engine cards expanded (card_preset.hpp) ->
// overrides -> parse_scenario.

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

}  // namespace

Scenario load_scenario(const fs::path& file, const std::vector<std::string>& overrides,
                       const DataPaths& data) {
  nlohmann::json document = parse_json_document(read_text(file), file.string());
  const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  IssueList preset_issues;
  expand_network_preset(document, data, dir, preset_issues);
  preset_issues.throw_if_any(file.string());
  expand_card_presets(document, data);
  IssueList override_issues;
  const auto applied = apply_overrides(document, overrides, override_issues);
  override_issues.throw_if_any(file.string());
  ParseOptions options{data, dir};
  try {
    return parse_scenario(document, file.string(), options);
  } catch (const ScenarioError& e) {
    throw ScenarioError(e.file(), annotate_overrides(e.issues(), applied));
  }
}

}  // namespace lynxsim::scenario
