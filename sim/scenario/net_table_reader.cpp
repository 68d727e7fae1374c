#include "sim/scenario/net_table_reader.hpp"

#include <fmt/format.h>

namespace lynxsim::scenario {

void keep_written(const nlohmann::json& written, nlohmann::json& resolved) {
  if (!written.is_object()) return;
  for (const auto& [key, value] : written.items()) {
    if (!value.is_object() && !value.is_array()) resolved[key] = value;
  }
}

std::optional<std::vector<std::string>> read_names(ObjectReader& r, const Field& f, nlohmann::json& resolved) {
  const nlohmann::json* v = r.get(f.key, f.required);
  if (v == nullptr) return std::nullopt;
  const std::string path = r.child(f.key);
  if (!v->is_array()) {
    r.issues().add(path, fmt::format("expected an array of names, got {}", describe_value(*v)));
    return std::nullopt;
  }
  std::vector<std::string> names;
  bool ok = true;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const nlohmann::json& item = (*v)[i];
    const std::string item_path = pointer_child(path, std::to_string(i));
    if (!item.is_string()) {
      r.issues().add(item_path, fmt::format("expected a name, got {}", describe_value(item)));
      ok = false;
    } else if (check_name(item.get<std::string>(), item_path, r.issues())) {
      names.push_back(item.get<std::string>());
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  resolved[std::string(f.key)] = names;
  return names;
}

std::optional<std::vector<std::string>> read_host_names(ObjectReader& r, const Field& f,
                                                        nlohmann::json& resolved) {
  auto names = read_names(r, f, resolved);
  if (names && names->empty()) r.issues().add(r.child(f.key), "expected at least one host name");
  return names;
}

}  // namespace lynxsim::scenario
