// Model cards, hardware profiles and serving-engine profiles of a scenario: a preset name looked up
// in models/, configs/gpus/ or configs/engines/, or an inline object with the card's fields, both read by compute's strict readers
// (the same schema for both forms; an inline card is read from the parsed scenario, never through a
// file). Card errors become issues at the scenario's JSON path.

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

#include "sim/compute/card_loader.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/scenario_sections.hpp"

namespace lynxsim::scenario {
namespace fs = std::filesystem;
namespace {

bool plain_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || c == '.';
  }) && name.front() != '.';
}

std::string known_names(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return fmt::format("{}", fmt::join(names, ", "));
}

// CardError lines are "<file>: <pointer>: <message>"; those of `file` move under `path`.
void add_card_issues(const std::string& text, const std::string& file, const std::string& path,
                     IssueList& issues) {
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    const std::string prefix = file + ": ";
    const auto sep = line.find(": ", prefix.size());
    if (line.rfind(prefix, 0) == 0 && sep != std::string::npos) {
      const std::string pointer = line.substr(prefix.size(), sep - prefix.size());
      issues.add(path + (pointer == "/" ? "" : pointer), line.substr(sep + 2));
    } else {
      issues.add(path, line);
    }
    start = end + 1;
  }
}

constexpr const char* kInlineSource = "inline card";

template <class Spec, class FromJson>
Spec load_inline(const nlohmann::json& value, const std::string& path, IssueList& issues,
                 FromJson from_json) {
  try {
    return from_json(value, kInlineSource);
  } catch (const CardError& e) {
    add_card_issues(e.what(), kInlineSource, path, issues);
  }
  return Spec{};
}

template <class Spec, class Loader, class FromJson>
Spec read_card(const nlohmann::json& value, const std::string& path, IssueList& issues,
               const fs::path& dir, const char* what, Loader loader, FromJson from_json) {
  if (value.is_object()) return load_inline<Spec>(value, path, issues, from_json);
  if (value.is_string() && !check_name(value.get<std::string>(), path, issues)) return Spec{};
  if (!value.is_string() || !plain_name(value.get<std::string>())) {
    issues.add(path, fmt::format("expected a {} name or an inline {} object, got {}", what, what,
                                 describe_value(value)));
    return Spec{};
  }
  const std::string name = value.get<std::string>();
  const fs::path file = dir / (name + ".json");
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    issues.add(path, fmt::format("unknown {} \"{}\" (known: {})", what, name, known_names(dir)));
    return Spec{};
  }
  try {
    return loader(file);
  } catch (const CardError& e) {
    issues.add(path, e.what());
  }
  return Spec{};
}

}  // namespace

ModelSpec read_model(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
                     nlohmann::json& resolved) {
  resolved = value;
  return read_card<ModelSpec>(value, path, ctx.issues, ctx.options.data.models(), "model",
                              [](const fs::path& f) { return load_model_card(f); },
                              model_card_from_json);
}

HardwareSpec read_gpu(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
                      nlohmann::json& resolved) {
  resolved = value;
  return read_card<HardwareSpec>(value, path, ctx.issues, ctx.options.data.gpus(), "GPU",
                                 [](const fs::path& f) { return load_hardware_profile(f); },
                                 hardware_profile_from_json);
}

EngineSpec read_engine(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
                       nlohmann::json& resolved) {
  resolved = value;
  return read_card<EngineSpec>(value, path, ctx.issues, ctx.options.data.engines(),
                               "serving engine",
                               [](const fs::path& f) { return load_engine_profile(f); },
                               engine_profile_from_json);
}

}  // namespace lynxsim::scenario
