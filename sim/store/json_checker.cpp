#include "sim/store/json_checker.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lynxsim::store {

void JsonChecker::error(const std::string& path, const std::string& message) {
  errors_.push_back(path + ": " + message);
}

void JsonChecker::throw_if_errors() const {
  if (errors_.empty()) return;
  std::string message = document_name_ + ": " + std::to_string(errors_.size()) + " error(s)";
  for (const auto& e : errors_) message += "\n  " + e;
  throw std::invalid_argument(message);
}

void JsonChecker::expect_keys(const nlohmann::json& object, const std::string& path,
                              const std::vector<std::string>& allowed) {
  if (!object.is_object()) {
    error(path.empty() ? "/" : path, "expected an object");
    return;
  }
  for (const auto& item : object.items()) {
    if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end()) {
      error(path + "/" + item.key(), "unknown key");
    }
  }
}

const nlohmann::json* JsonChecker::field(const nlohmann::json& object, const std::string& key, const std::string& path) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  if (it == object.end()) {
    error(path + "/" + key, "missing");
    return nullptr;
  }
  return &*it;
}

const nlohmann::json* JsonChecker::object(const nlohmann::json& parent, const std::string& key,
                                          const std::string& path) {
  const nlohmann::json* value = field(parent, key, path);
  if (value != nullptr && !value->is_object()) {
    error(path + "/" + key, "expected an object");
    return nullptr;
  }
  return value;
}

double JsonChecker::number(const nlohmann::json& object, const std::string& key, const std::string& path, double lo,
                           double hi) {
  const nlohmann::json* value = field(object, key, path);
  if (value == nullptr) return lo;
  if (!value->is_number()) {
    error(path + "/" + key, "expected a number");
    return lo;
  }
  const double x = value->get<double>();
  if (!std::isfinite(x) || x < lo || x > hi) {
    error(path + "/" + key, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return lo;
  }
  return x;
}

int JsonChecker::integer(const nlohmann::json& object, const std::string& key, const std::string& path, int lo,
                         int hi) {
  const nlohmann::json* value = field(object, key, path);
  if (value == nullptr) return lo;
  if (!value->is_number_integer()) {
    error(path + "/" + key, "expected an integer");
    return lo;
  }
  const auto x = value->get<long long>();
  if (x < lo || x > hi) {
    error(path + "/" + key, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return lo;
  }
  return static_cast<int>(x);
}

std::string JsonChecker::text(const nlohmann::json& object, const std::string& key, const std::string& path) {
  const nlohmann::json* value = field(object, key, path);
  if (value == nullptr) return {};
  if (!value->is_string()) {
    error(path + "/" + key, "expected a string");
    return {};
  }
  return value->get<std::string>();
}

std::vector<double> JsonChecker::pair(const nlohmann::json& object, const std::string& key, const std::string& path,
                                      double min, double max) {
  const nlohmann::json* value = field(object, key, path);
  const std::vector<double> fallback{min, min};
  if (value == nullptr) return fallback;
  if (!value->is_array() || value->size() != 2 || !(*value)[0].is_number() || !(*value)[1].is_number()) {
    error(path + "/" + key, "expected [lo, hi]");
    return fallback;
  }
  const double lo = (*value)[0].get<double>();
  const double hi = (*value)[1].get<double>();
  if (!(min <= lo && lo <= hi && hi <= max)) {
    error(path + "/" + key,
          "expected " + std::to_string(min) + " <= lo <= hi <= " + std::to_string(max));
    return fallback;
  }
  return {lo, hi};
}

}  // namespace lynxsim::store
