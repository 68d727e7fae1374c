// load_scenario: file -> JSON (syntax errors with line and column) -> overrides -> parse_scenario.

#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario.hpp"

namespace lynxsim::scenario {
namespace fs = std::filesystem;
namespace {

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in || fs::is_directory(file)) {
    throw ScenarioError(file.string(), {{"", "cannot read the file"}});
  }
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string line_column(const std::string& text, std::size_t byte) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("line {}, column {}", line, column);
}

nlohmann::json parse_text(const std::string& text, const fs::path& file) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string detail = e.what();
    const auto colon = detail.find(": ");
    if (colon != std::string::npos) detail = detail.substr(colon + 2);
    throw ScenarioError(file.string(),
                        {{"", fmt::format("JSON syntax error at {}: {}", line_column(text, e.byte),
                                          detail)}});
  }
}

}  // namespace

DataPaths DataPaths::from_root(const fs::path& root) {
  return {root / "models", root / "configs"};
}

Scenario load_scenario(const fs::path& file, const std::vector<std::string>& overrides,
                       const DataPaths& data) {
  nlohmann::json document = parse_text(read_text(file), file);
  IssueList override_issues;
  const auto applied = apply_overrides(document, overrides, override_issues);
  override_issues.throw_if_any(file.string());
  ParseOptions options{data, file.parent_path().empty() ? fs::path(".") : file.parent_path()};
  try {
    return parse_scenario(document, file.string(), options);
  } catch (const ScenarioError& e) {
    throw ScenarioError(e.file(), annotate_overrides(e.issues(), applied));
  }
}

}  // namespace lynxsim::scenario
