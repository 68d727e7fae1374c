#include "sim/scenario/overrides.hpp"

#include <charconv>
#include <fmt/format.h>
#include <optional>

#include "sim/core/printable.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/strict_json.hpp"

namespace lynxsim::scenario {
namespace {

using nlohmann::json;

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? dot : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

std::optional<std::size_t> index_of(const std::string& text) {
  std::size_t index = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
  if (ec != std::errc{} || ptr != text.data() + text.size() || text.empty()) return std::nullopt;
  return index;
}

json parse_value(const std::string& text) {
  try {
    return parse_strict_json(text);
  } catch (const StrictJsonError&) {
    return json(text);
  }
}

// The slot `part` of `node`, created when `node` is an object (or null) or appended at the end of
// an array; nullptr with `problem` set when it cannot be reached.
json* step(json& node, const std::string& part, std::string& problem) {
  if (node.is_null()) node = json::object();
  if (node.is_object()) return &node[part];
  if (node.is_array()) {
    const auto index = index_of(part);
    if (!index || *index > node.size()) {
      problem = fmt::format("\"{}\" is not an index of an array of {} items", part, node.size());
      return nullptr;
    }
    if (*index == node.size()) node.push_back(nullptr);
    return &node[*index];
  }
  problem = fmt::format("cannot descend into \"{}\": its parent is {}", part, describe_value(node));
  return nullptr;
}

}  // namespace

std::vector<AppliedOverride> apply_overrides(json& document,
                                             const std::vector<std::string>& overrides,
                                             IssueList& issues) {
  std::vector<AppliedOverride> applied;
  for (const auto& text : overrides) {
    const std::string where = "--set " + text;
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
      issues.add(where, "expected path=value, e.g. network.bandwidth=10Gbps");
      continue;
    }
    if (!is_valid_utf8(text)) {
      issues.add(where, "is not valid UTF-8 (a scenario's text is UTF-8)");
      continue;
    }
    json* node = &document;
    std::string pointer;
    std::string problem;
    for (const auto& part : split_path(text.substr(0, eq))) {
      if (part.empty()) problem = "empty path component";
      if (!problem.empty()) break;
      node = step(*node, part, problem);
      pointer = pointer_child(pointer, part);
    }
    if (!problem.empty()) {
      issues.add(where, problem);
      continue;
    }
    *node = parse_value(text.substr(eq + 1));
    applied.push_back({text, pointer});
  }
  return applied;
}

std::vector<ScenarioIssue> annotate_overrides(const std::vector<ScenarioIssue>& issues,
                                              const std::vector<AppliedOverride>& applied) {
  std::vector<ScenarioIssue> out = issues;
  for (auto& issue : out) {
    for (const auto& o : applied) {
      const bool below = issue.json_path == o.pointer ||
                         issue.json_path.rfind(o.pointer + "/", 0) == 0;
      if (below) issue.message += fmt::format(" (set by --set {})", o.text);
    }
  }
  return out;
}

}  // namespace lynxsim::scenario
