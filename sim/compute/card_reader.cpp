#include "sim/compute/card_reader.hpp"

#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/compute/card_loader.hpp"

namespace lynxsim {

CardReader::CardReader(std::string file, const nlohmann::json& root)
    : file_(std::move(file)), root_(root) {
  if (!root_.is_object()) error("", "expected a JSON object");
}

void CardReader::error(const std::string& pointer, std::string_view message) {
  errors_.push_back(fmt::format("{}: {}: {}", file_, pointer.empty() ? "/" : pointer, message));
}

const nlohmann::json* CardReader::field(const std::string& key) {
  seen_.insert(key);
  if (!root_.is_object()) return nullptr;
  const auto it = root_.find(key);
  if (it == root_.end()) {
    error("/" + key, "missing field");
    return nullptr;
  }
  return &*it;
}

int CardReader::positive_int(const std::string& key) {
  const nlohmann::json* v = field(key);
  if (v == nullptr) return 0;
  if (!v->is_number_integer() || v->get<std::int64_t>() <= 0 ||
      v->get<std::int64_t>() > std::numeric_limits<int>::max()) {
    error("/" + key, "expected a positive integer");
    return 0;
  }
  return v->get<int>();
}

double CardReader::positive_number(const std::string& key) {
  const nlohmann::json* v = field(key);
  if (v == nullptr) return 0.0;
  if (!v->is_number() || !(v->get<double>() > 0.0)) {
    error("/" + key, "expected a positive number");
    return 0.0;
  }
  return v->get<double>();
}

std::string CardReader::text(const std::string& key) {
  const nlohmann::json* v = field(key);
  if (v == nullptr) return {};
  if (!v->is_string() || v->get<std::string>().empty()) {
    error("/" + key, "expected a non-empty string");
    return {};
  }
  return v->get<std::string>();
}

void CardReader::optional_text(const std::string& key) {
  seen_.insert(key);
  if (!root_.is_object() || !root_.contains(key)) return;
  if (!root_.at(key).is_string()) error("/" + key, "expected a string");
}

void CardReader::schema_version(int expected) {
  const nlohmann::json* v = field("schema_version");
  if (v != nullptr && !(v->is_number_integer() && v->get<std::int64_t>() == expected)) {
    error("/schema_version", fmt::format("expected the integer {}", expected));
  }
}

const nlohmann::json* CardReader::quantity_value(const std::string& key) {
  const nlohmann::json* q = field(key);
  if (q == nullptr) return nullptr;
  const std::string pointer = "/" + key;
  if (!q->is_object()) {
    error(pointer, "expected an object {\"value\": ..., \"source\": \"...\"}");
    return nullptr;
  }
  bool has_source = false;
  for (const auto& [name, item] : q->items()) {
    if (name == "source" || name == "comment") {
      if (!item.is_string() || item.get<std::string>().empty()) {
        error(pointer + "/" + name, "expected a non-empty string");
      }
      has_source = true;
    } else if (name != "value") {
      error(pointer + "/" + name, "unknown key");
    }
  }
  if (!has_source) error(pointer + "/source", "missing field (every value needs its source)");
  if (!q->contains("value")) {
    error(pointer + "/value", "missing field");
    return nullptr;
  }
  return &q->at("value");
}

double CardReader::fraction(const std::string& key) {
  const nlohmann::json* v = quantity_value(key);
  if (v == nullptr) return 0.0;
  if (!v->is_number() || !(v->get<double>() > 0.0) || v->get<double>() > 1.0) {
    error("/" + key + "/value", "expected a number in (0, 1]");
    return 0.0;
  }
  return v->get<double>();
}

double CardReader::share(const std::string& key) {
  const nlohmann::json* v = quantity_value(key);
  if (v == nullptr) return 0.0;
  if (!v->is_number() || !(v->get<double>() >= 0.0) || v->get<double>() > 1.0) {
    error("/" + key + "/value", "expected a number in [0, 1]");
    return 0.0;
  }
  return v->get<double>();
}

double CardReader::count(const std::string& key) {
  const nlohmann::json* v = quantity_value(key);
  if (v == nullptr) return 0.0;
  if (!v->is_number() || !(v->get<double>() >= 0.0)) {
    error("/" + key + "/value", "expected a non-negative number");
    return 0.0;
  }
  return v->get<double>();
}

double CardReader::quantity(const std::string& key, std::string_view what,
                            const std::function<double(std::string_view)>& parse) {
  return read_quantity(key, what, parse, false);
}

double CardReader::non_negative_quantity(const std::string& key, std::string_view what,
                                         const std::function<double(std::string_view)>& parse) {
  return read_quantity(key, what, parse, true);
}

bool CardReader::flag(const std::string& key) {
  const nlohmann::json* v = quantity_value(key);
  if (v == nullptr) return false;
  if (!v->is_boolean()) {
    error("/" + key + "/value", "expected true or false");
    return false;
  }
  return v->get<bool>();
}

double CardReader::read_quantity(const std::string& key, std::string_view what,
                                 const std::function<double(std::string_view)>& parse,
                                 bool zero_allowed) {
  const nlohmann::json* v = quantity_value(key);
  if (v == nullptr) return 0.0;
  const std::string pointer = "/" + key + "/value";
  if (!v->is_string()) {
    error(pointer, fmt::format("expected {} (a string with its unit)", what));
    return 0.0;
  }
  try {
    const double magnitude = parse(v->get<std::string>());
    if (magnitude > 0.0 || (zero_allowed && magnitude == 0.0)) return magnitude;
    error(pointer, fmt::format("expected a {} value, got \"{}\"",
                               zero_allowed ? "non-negative" : "positive", v->get<std::string>()));
  } catch (const std::invalid_argument& e) {
    error(pointer, fmt::format("expected {}: {}", what, e.what()));
  }
  return 0.0;
}

void CardReader::finish() {
  if (root_.is_object()) {
    for (const auto& [name, item] : root_.items()) {
      if (seen_.count(name) == 0) error("/" + name, "unknown key");
    }
  }
  if (errors_.empty()) return;
  throw CardError(fmt::format("{}", fmt::join(errors_, "\n")));
}

}  // namespace lynxsim
