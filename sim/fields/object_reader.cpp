#include "sim/fields/object_reader.hpp"

#include <cmath>
#include <fmt/format.h>

#include "sim/core/printable.hpp"
#include "sim/core/unit_parse.hpp"

namespace lynxsim::fields {
namespace {

constexpr const char* kControlCharacters =
    "must not contain control characters (newline, tab, ...)";

}  // namespace

std::string describe_value(const nlohmann::json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

std::string time_text(Time t) { return t == Time::zero() ? "0s" : format_time(t); }

std::string bytes_text(Bytes b) {
  const std::string text = format_bytes(b);
  try {
    if (parse_bytes(text) == b) return text;
  } catch (const UnitError&) {
  }
  return fmt::format("{}B", b.value);
}

std::string pointer_child(const std::string& path, std::string_view key) {
  std::string escaped;
  for (const char c : key) {
    if (c == '~') escaped += "~0";
    else if (c == '/') escaped += "~1";
    else escaped += c;
  }
  return path + "/" + escaped;
}

ObjectReader::ObjectReader(const nlohmann::json& value, std::string path, IssueList& issues)
    : path_(std::move(path)), issues_(issues) {
  if (value.is_object()) {
    object_ = &value;
  } else {
    issues_.add(path_, fmt::format("expected an object, got {}", describe_value(value)));
  }
}

const nlohmann::json* ObjectReader::get(std::string_view key, bool required) {
  known_.emplace(key);
  if (object_ == nullptr) return nullptr;
  const auto it = object_->find(key);
  if (it == object_->end()) {
    if (required) issues_.add(child(key), "missing field");
    return nullptr;
  }
  return &*it;
}

std::optional<std::int64_t> ObjectReader::integer(std::string_view key, std::int64_t min_value,
                                                  bool required) {
  const auto* v = get(key, required);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number_integer() || (v->is_number_unsigned() && v->get<std::uint64_t>() > INT64_MAX) ||
      v->get<std::int64_t>() < min_value) {
    issues_.add(child(key),
                fmt::format("expected an integer >= {}, got {}", min_value, describe_value(*v)));
    return std::nullopt;
  }
  return v->get<std::int64_t>();
}

std::optional<int> ObjectReader::count(std::string_view key, std::int64_t min_value,
                                       std::int64_t max_value, bool required) {
  const auto* v = get(key, required);
  if (v == nullptr) return std::nullopt;
  const bool integral = v->is_number_integer() &&
                        !(v->is_number_unsigned() && v->get<std::uint64_t>() > INT64_MAX);
  if (!integral || v->get<std::int64_t>() < min_value || v->get<std::int64_t>() > max_value) {
    issues_.add(child(key), fmt::format("expected an integer >= {} and <= {}, got {}", min_value,
                                        max_value, describe_value(*v)));
    return std::nullopt;
  }
  return static_cast<int>(v->get<std::int64_t>());
}

std::optional<double> ObjectReader::number(std::string_view key, double min_value,
                                           double max_value, bool required, bool open_min) {
  const auto* v = get(key, required);
  if (v == nullptr) return std::nullopt;
  const bool above_min = v->is_number() && (open_min ? v->get<double>() > min_value
                                                     : v->get<double>() >= min_value);
  if (!above_min || !(v->get<double>() <= max_value)) {
    issues_.add(child(key), fmt::format("expected a number in {}{}, {}], got {}", open_min ? "(" : "[",
                                        min_value, max_value, describe_value(*v)));
    return std::nullopt;
  }
  return v->get<double>();
}

std::optional<std::string> ObjectReader::text(std::string_view key, bool required) {
  const auto* v = get(key, required);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) {
    issues_.add(child(key), fmt::format("expected a string, got {}", describe_value(*v)));
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<std::string> ObjectReader::string(std::string_view key, bool required) {
  auto v = text(key, required);
  if (v && has_control_character(*v)) {
    issues_.add(child(key), kControlCharacters);
    return std::nullopt;
  }
  return v;
}

std::optional<std::string> ObjectReader::name(std::string_view key, bool required) {
  auto v = string(key, required);
  if (v && !check_name(*v, child(key), issues_)) return std::nullopt;
  return v;
}

bool check_name(const std::string& name, const std::string& path, IssueList& issues) {
  if (has_control_character(name)) {
    issues.add(path, kControlCharacters);
    return false;
  }
  if (name.size() > kMaxNameLength) {
    issues.add(path, fmt::format("a name of {} characters, longer than the {} a name may have",
                                 name.size(), kMaxNameLength));
    return false;
  }
  return true;
}

std::optional<bool> ObjectReader::boolean(std::string_view key) {
  const auto* v = get(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_boolean()) {
    issues_.add(child(key), fmt::format("expected true or false, got {}", describe_value(*v)));
    return std::nullopt;
  }
  return v->get<bool>();
}

std::optional<Time> ObjectReader::time(std::string_view key, bool positive, bool required) {
  const auto* v = get(key, required);
  if (v == nullptr) return std::nullopt;
  const char* expected = positive ? "a positive duration like \"10us\"" : "a duration like \"10us\"";
  try {
    if (!v->is_string()) throw UnitError("not a string");
    const Time t = parse_time(v->get<std::string>());
    if (t < Time::zero() || (positive && t == Time::zero())) throw UnitError("out of range");
    return t;
  } catch (const std::exception&) {
    issues_.add(child(key), fmt::format("expected {}, got {}", expected, describe_value(*v)));
    return std::nullopt;
  }
}

std::optional<BitsPerSecond> ObjectReader::bit_rate(std::string_view key, bool required) {
  const auto* v = get(key, required);
  if (v == nullptr) return std::nullopt;
  try {
    if (!v->is_string()) throw UnitError("not a string");
    const BitsPerSecond rate = parse_bit_rate(v->get<std::string>());
    if (!(rate.value > 0.0)) throw UnitError("not positive");
    return rate;
  } catch (const std::exception&) {
    issues_.add(child(key),
                fmt::format("expected a rate like \"100Gbps\", got {}", describe_value(*v)));
    return std::nullopt;
  }
}

std::optional<Bytes> ObjectReader::bytes(std::string_view key, bool required) {
  const auto* v = get(key, required);
  if (v == nullptr) return std::nullopt;
  try {
    if (!v->is_string()) throw UnitError("not a string");
    const Bytes size = parse_bytes(v->get<std::string>());
    if (size.value < 0) throw UnitError("negative");
    return size;
  } catch (const std::exception&) {
    issues_.add(child(key),
                fmt::format("expected a size like \"64GiB\", got {}", describe_value(*v)));
    return std::nullopt;
  }
}

void ObjectReader::finish() {
  if (object_ == nullptr) return;
  for (const auto& [key, value] : object_->items()) {
    if (known_.find(key) == known_.end()) issues_.add(child(key), "unknown key");
  }
}

}  // namespace lynxsim::fields
