// Model cards, hardware profiles and serving-engine profiles of a scenario: a preset name looked up
// in models/, configs/gpus/ or configs/engines/, or an inline object with the card's fields, both
// read by the card readers (card_reader.hpp, the same tables for both forms). An inline card's
// problems are issues at their own paths under the scenario's key (/model/moe/top_k); a named
// card's are one issue at the key, listing the card file's lines.

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/scenario/card_files.hpp"
#include "sim/scenario/card_reader.hpp"
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

template <class Spec, class Loader, class Read>
Spec read_card(const nlohmann::json& value, const std::string& path, IssueList& issues,
               const fs::path& dir, const char* what, Loader loader, Read read) {
  if (value.is_object()) return read(value, path, issues);
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
    issues.add(path, fmt::format("unknown {} \"{}\" (known: {})", what, name,
                                 fmt::join(card_names(dir), ", ")));
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
                              read_model_card);
}

HardwareSpec read_gpu(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
                      nlohmann::json& resolved) {
  resolved = value;
  return read_card<HardwareSpec>(value, path, ctx.issues, ctx.options.data.gpus(), "GPU",
                                 [](const fs::path& f) { return load_hardware_profile(f); },
                                 read_hardware_profile);
}

EngineSpec read_engine(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
                       nlohmann::json& resolved) {
  resolved = value;
  return read_card<EngineSpec>(value, path, ctx.issues, ctx.options.data.engines(),
                               "serving engine",
                               [](const fs::path& f) { return load_engine_profile(f); },
                               read_engine_profile);
}

}  // namespace lynxsim::scenario
