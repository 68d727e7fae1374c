#include "sim/scenario/network_preset.hpp"

#include <fmt/format.h>

#include "sim/scenario/input_file.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/strict_json.hpp"

namespace lynxsim::scenario {
namespace fs = std::filesystem;
namespace {

bool plain_name(const std::string& name) {
  return !name.empty() && name.size() <= 200 && name.front() != '.' &&
         name.find_first_of("/\\") == std::string::npos &&
         name.find_first_of(std::string("\0\n\r\t", 4)) == std::string::npos;
}

void rebase_trace_files(nlohmann::json& network, const fs::path& from, const fs::path& to) {
  if (!network.is_object() || !network.contains("traces") || !network.at("traces").is_array()) return;
  for (auto& trace : network.at("traces")) {
    if (!trace.is_object() || !trace.contains("csv") || !trace.at("csv").is_string()) continue;
    const fs::path file = from / trace.at("csv").get<std::string>();
    std::error_code ec;
    const fs::path relative = fs::relative(file, to, ec);
    trace["csv"] = (ec || relative.empty() ? fs::absolute(file) : relative).generic_string();
  }
}

}  // namespace

std::optional<nlohmann::json> load_network_preset(const std::string& name, const DataPaths& data,
                                                  const fs::path& scenario_dir,
                                                  const std::string& path, IssueList& issues) {
  if (!check_name(name, path, issues)) return std::nullopt;
  const fs::path dir = data.topologies();
  const fs::path file = dir / (name + ".json");
  std::error_code ec;
  if (!plain_name(name) || !fs::is_regular_file(file, ec)) {
    issues.add(path, fmt::format("unknown network preset \"{}\" (no {})",
                                 plain_name(name) ? name : std::string("..."), file.string()));
    return std::nullopt;
  }
  try {
    nlohmann::json network = parse_strict_json(read_input_file(file, kMaxConfigFileBytes));
    if (!network.is_object()) {
      issues.add(path, fmt::format("{}: expected a network object", file.string()));
      return std::nullopt;
    }
    rebase_trace_files(network, dir, scenario_dir);
    network["preset"] = name;
    return network;
  } catch (const InputFileError& e) {
    issues.add(path, e.what());
  } catch (const StrictJsonError& e) {
    issues.add(path, fmt::format("{}: {} {}", file.string(), e.pointer(), e.what()));
  }
  return std::nullopt;
}

void expand_network_preset(nlohmann::json& document, const DataPaths& data,
                           const fs::path& scenario_dir, IssueList& issues) {
  if (!document.is_object() || !document.contains("network")) return;
  nlohmann::json& network = document.at("network");
  if (!network.is_string()) return;
  if (auto expanded = load_network_preset(network.get<std::string>(), data, scenario_dir,
                                          "/network", issues)) {
    network = std::move(*expanded);
  }
}

}  // namespace lynxsim::scenario
