// Model cards, hardware profiles and serving-engine profiles of a scenario: a preset name looked up
// in models/, configs/gpus/ or configs/engines/, or an inline object with the card's fields, both
// read by the card readers (card_reader.hpp, the same tables for both forms). An inline card's
// problems are issues at their own paths under the scenario's key (/model/moe/top_k); a named
// card's are one issue at the key, listing the card file's lines. The resolved form of a named card
// is its expanded object (card_preset.hpp), so the resolved scenario holds every card value.

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/scenario/card_files.hpp"
#include "sim/scenario/card_preset.hpp"
#include "sim/scenario/card_reader.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/scenario_sections.hpp"

namespace lynxsim::scenario {
namespace fs = std::filesystem;
namespace {

struct CardSource {
  CardKind kind;
  const char* what;
  fs::path dir;
};

template <class Spec, class Loader, class Read>
Spec read_card(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
               const CardSource& source, nlohmann::json& resolved, Loader loader, Read read) {
  IssueList& issues = ctx.issues;
  const char* what = source.what;
  const fs::path& dir = source.dir;
  resolved = value;
  if (value.is_object()) return read(value, path, issues);
  if (value.is_string() && !check_name(value.get<std::string>(), path, issues)) return Spec{};
  if (!value.is_string() || !plain_card_name(value.get<std::string>())) {
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
    Spec spec = loader(file);
    if (auto card = load_card_preset(source.kind, name, ctx.options.data)) resolved = std::move(*card);
    return spec;
  } catch (const CardError& e) {
    issues.add(path, e.what());
  }
  return Spec{};
}

}  // namespace

ModelSpec read_model(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
                     nlohmann::json& resolved) {
  return read_card<ModelSpec>(value, path, ctx, {CardKind::model, "model", ctx.options.data.models()},
                              resolved, [](const fs::path& f) { return load_model_card(f); },
                              read_model_card);
}

HardwareSpec read_gpu(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
                      nlohmann::json& resolved) {
  return read_card<HardwareSpec>(value, path, ctx, {CardKind::gpu, "GPU", ctx.options.data.gpus()},
                                 resolved, [](const fs::path& f) { return load_hardware_profile(f); },
                                 read_hardware_profile);
}

EngineSpec read_engine(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
                       nlohmann::json& resolved) {
  return read_card<EngineSpec>(
      value, path, ctx, {CardKind::engine, "serving engine", ctx.options.data.engines()}, resolved,
      [](const fs::path& f) { return load_engine_profile(f); }, read_engine_profile);
}

}  // namespace lynxsim::scenario
