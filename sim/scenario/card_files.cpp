#include "sim/scenario/card_files.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/scenario/card_reader.hpp"
#include "sim/scenario/input_file.hpp"
#include "sim/scenario/strict_json.hpp"

namespace lynxsim::scenario {
namespace fs = std::filesystem;
namespace {

}  // namespace

nlohmann::json read_card_json(const fs::path& path) {
  std::string text;
  try {
    text = read_input_file(path, kMaxConfigFileBytes);
  } catch (const InputFileError& e) {
    const std::string prefix = path.string() + ": ";
    const std::string what = e.what();
    throw CardError(path.string(),
                    {{"", what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what}});
  }
  try {
    return parse_strict_json(text);
  } catch (const StrictJsonError& e) {
    if (!e.pointer().empty()) throw CardError(path.string(), {{e.pointer(), e.what()}});
    throw CardError(path.string(), {{"", fmt::format("invalid JSON at byte {}: {}", e.byte(), e.what())}});
  }
}

namespace {

template <class Spec, class Read>
Spec read_or_throw(const nlohmann::json& card, const std::string& source, Read read) {
  IssueList issues;
  Spec spec = read(card, "", issues);
  if (!issues.empty()) throw CardError(source, issues.items());
  return spec;
}

template <class Spec, class Load>
std::vector<Spec> load_all(const fs::path& dir, Load load) {
  if (!fs::is_directory(dir)) throw CardError(dir.string(), {{"", "not a directory"}});
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<Spec> specs;
  for (const auto& file : files) specs.push_back(load(file));
  std::sort(specs.begin(), specs.end(),
            [](const Spec& a, const Spec& b) { return a.name < b.name; });
  return specs;
}

}  // namespace

ModelSpec model_card_from_json(const nlohmann::json& card, const std::string& source) {
  return read_or_throw<ModelSpec>(card, source, read_model_card);
}

HardwareSpec hardware_profile_from_json(const nlohmann::json& card, const std::string& source) {
  return read_or_throw<HardwareSpec>(card, source, read_hardware_profile);
}

EngineSpec engine_profile_from_json(const nlohmann::json& card, const std::string& source) {
  return read_or_throw<EngineSpec>(card, source, read_engine_profile);
}

ModelSpec load_model_card(const fs::path& path) {
  return model_card_from_json(read_card_json(path), path.string());
}

HardwareSpec load_hardware_profile(const fs::path& path) {
  return hardware_profile_from_json(read_card_json(path), path.string());
}

EngineSpec load_engine_profile(const fs::path& path) {
  return engine_profile_from_json(read_card_json(path), path.string());
}

std::vector<ModelSpec> list_model_cards(const fs::path& dir) {
  return load_all<ModelSpec>(dir, load_model_card);
}

std::vector<HardwareSpec> list_hardware(const fs::path& dir) {
  return load_all<HardwareSpec>(dir, load_hardware_profile);
}

std::vector<EngineSpec> list_engines(const fs::path& dir) {
  return load_all<EngineSpec>(dir, load_engine_profile);
}

std::vector<std::string> card_names(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace lynxsim::scenario
