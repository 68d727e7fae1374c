#include "sim/scenario/card_preset.hpp"

#include <algorithm>

#include "sim/scenario/card_files.hpp"
#include "sim/scenario/json_fields.hpp"

namespace lynxsim::scenario {
namespace fs = std::filesystem;
namespace {

using nlohmann::json;

struct CardPlace {
  fs::path dir;
  std::string_view table;
};

CardPlace place_of(CardKind kind, const DataPaths& data) {
  switch (kind) {
    case CardKind::model: return {data.models(), "model-card"};
    case CardKind::gpu: return {data.gpus(), "gpu-profile"};
    case CardKind::engine: return {data.engines(), "engine-profile"};
  }
  return {data.models(), "model-card"};
}

void check_card(CardKind kind, const json& card, const std::string& source) {
  switch (kind) {
    case CardKind::model: (void)model_card_from_json(card, source); return;
    case CardKind::gpu: (void)hardware_profile_from_json(card, source); return;
    case CardKind::engine: (void)engine_profile_from_json(card, source); return;
  }
}

void fill_defaults(json& card, std::string_view table) {
  for (const Field& f : field_section(table).fields) {
    const std::string key(f.key);
    if (!f.default_json.empty() && !card.contains(key)) card[key] = json::parse(f.default_json);
  }
}

void expand(json& value, CardKind kind, const DataPaths& data) {
  if (!value.is_string()) return;
  if (auto card = load_card_preset(kind, value.get<std::string>(), data)) value = std::move(*card);
}

void expand_group_gpus(json& document, const char* role, const DataPaths& data) {
  if (!document.contains(role)) return;
  json& groups = document.at(role);
  const auto expand_group = [&](json& group) {
    if (group.is_object() && group.contains("gpu")) expand(group.at("gpu"), CardKind::gpu, data);
  };
  if (groups.is_array()) std::for_each(groups.begin(), groups.end(), expand_group);
  else expand_group(groups);
}

void expand_engine(json& document, const DataPaths& data) {
  if (!document.contains("serving")) document["serving"] = json::object();
  json& serving = document.at("serving");
  if (!serving.is_object()) return;
  if (!serving.contains("engine")) {
    serving["engine"] = json::parse(field_section("serving")["engine"].default_json);
  }
  expand(serving.at("engine"), CardKind::engine, data);
}

}  // namespace

bool plain_card_name(const std::string& name) {
  return !name.empty() && name.front() != '.' && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || c == '.';
  });
}

std::optional<json> load_card_preset(CardKind kind, const std::string& name,
                                     const DataPaths& data) {
  if (!plain_card_name(name) || name.size() > 200) return std::nullopt;
  const CardPlace place = place_of(kind, data);
  const fs::path file = place.dir / (name + ".json");
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  try {
    json card = read_card_json(file);
    check_card(kind, card, file.string());
    fill_defaults(card, place.table);
    card["preset"] = name;
    return card;
  } catch (const CardError&) {
    return std::nullopt;
  }
}

void expand_card_presets(json& document, const DataPaths& data) {
  if (!document.is_object()) return;
  if (document.contains("model")) expand(document.at("model"), CardKind::model, data);
  expand_group_gpus(document, "prefill", data);
  expand_group_gpus(document, "decode", data);
  expand_engine(document, data);
}

}  // namespace lynxsim::scenario
