#include "sim/scenario/net_json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "sim/core/printable.hpp"
#include "sim/core/unit_parse.hpp"

namespace lynxsim::scenario {

using namespace net;
namespace {

constexpr const char* kControlMessage =
    "must not contain control characters (newline, tab, ...)";

}  // namespace

bool JsonReader::object(const json& j, const std::string& path,
                        std::initializer_list<std::string_view> allowed) {
  if (!j.is_object()) {
    error(path, "expected an object");
    return false;
  }
  for (const auto& [key, value] : j.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      error(child(path, key), "unknown key");
    }
  }
  return true;
}

const nlohmann::json* JsonReader::get(const json& o, const std::string& path, const char* key,
                                      bool required) {
  const auto it = o.find(key);
  if (it == o.end()) {
    if (required) error(child(path, key), "missing required key");
    return nullptr;
  }
  return &*it;
}

std::optional<Time> JsonReader::time(const json& o, const std::string& path, const char* key,
                                     bool required) {
  const json* v = get(o, path, key, required);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) {
    error(child(path, key), "expected a time like \"5us\"");
    return std::nullopt;
  }
  try {
    const Time t = parse_time(v->get<std::string>());
    if (t < Time::zero()) throw UnitError("must not be negative");
    return t;
  } catch (const std::exception& e) {
    error(child(path, key), fmt::format("expected a time like \"5us\": {}", e.what()));
    return std::nullopt;
  }
}

std::optional<BitsPerSecond> JsonReader::rate(const json& o, const std::string& path,
                                              const char* key, bool required) {
  const json* v = get(o, path, key, required);
  if (v == nullptr) return std::nullopt;
  try {
    if (!v->is_string()) throw UnitError("not a string");
    const BitsPerSecond r = parse_bit_rate(v->get<std::string>());
    if (!(r.value > 0.0)) throw UnitError("must be positive");
    return r;
  } catch (const std::exception& e) {
    error(child(path, key), fmt::format("expected a rate like \"100Gbps\": {}", e.what()));
    return std::nullopt;
  }
}

std::optional<double> JsonReader::number(const json& o, const std::string& path, const char* key,
                                         bool required) {
  const json* v = get(o, path, key, required);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number() || !std::isfinite(v->get<double>())) {
    error(child(path, key), "expected a number");
    return std::nullopt;
  }
  return v->get<double>();
}

std::optional<int> JsonReader::integer(const json& o, const std::string& path, const char* key,
                                       bool required, int min_value) {
  const json* v = get(o, path, key, required);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number_integer() || v->get<std::int64_t>() < min_value ||
      v->get<std::int64_t>() > 1'000'000) {
    error(child(path, key), fmt::format("expected an integer >= {}", min_value));
    return std::nullopt;
  }
  return static_cast<int>(v->get<std::int64_t>());
}

std::optional<std::string> JsonReader::string(const json& o, const std::string& path,
                                              const char* key, bool required) {
  const json* v = get(o, path, key, required);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string() || v->get<std::string>().empty()) {
    error(child(path, key), "expected a non-empty string");
    return std::nullopt;
  }
  if (has_control_character(v->get<std::string>())) {
    error(child(path, key), kControlMessage);
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<bool> JsonReader::boolean(const json& o, const std::string& path, const char* key) {
  const json* v = get(o, path, key, false);
  if (v == nullptr) return std::nullopt;
  if (!v->is_boolean()) {
    error(child(path, key), "expected true or false");
    return std::nullopt;
  }
  return v->get<bool>();
}

std::optional<std::vector<std::string>> JsonReader::strings(const json& o, const std::string& path,
                                                            const char* key, bool required) {
  const json* v = get(o, path, key, required);
  if (v == nullptr) return std::nullopt;
  if (!v->is_array()) {
    error(child(path, key), "expected an array of names");
    return std::nullopt;
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string()) {
      error(child(child(path, key), std::to_string(i)), "expected a string");
      continue;
    }
    if (has_control_character((*v)[i].get<std::string>())) {
      error(child(child(path, key), std::to_string(i)), kControlMessage);
      continue;
    }
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

}  // namespace lynxsim::scenario
