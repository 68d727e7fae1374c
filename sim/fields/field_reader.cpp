// ObjectReader's Field accessors: a declared key read with the bounds, default and resolved form of
// its Field (field_table.hpp).

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

#include "sim/core/unit_parse.hpp"
#include "sim/fields/object_reader.hpp"

namespace lynxsim::fields {
namespace {

std::int64_t lower(const Field& f) {
  return std::isfinite(f.min) ? static_cast<std::int64_t>(f.min) : INT64_MIN;
}

std::int64_t upper(const Field& f) {
  return std::isfinite(f.max) ? static_cast<std::int64_t>(f.max) : INT64_MAX;
}

void expect_type(const Field& f, std::initializer_list<FieldType> types) {
  if (std::find(types.begin(), types.end(), f.type) == types.end()) {
    field_table_mismatch(f, "type");
  }
}

}  // namespace

void field_table_mismatch(const Field& f, std::string_view what) {
  throw std::logic_error(fmt::format("scenario field table: key \"{}\" does not fit its reader ({})",
                                     f.key, what));
}

std::string default_choice(const Field& f) {
  return nlohmann::json::parse(f.default_json).get<std::string>();
}

template <class T, class Read>
std::optional<T> ObjectReader::from_field(const Field& f, Read&& read) {
  known_.emplace(f.key);
  if (object_ == nullptr) return std::nullopt;
  if (object_->contains(f.key) || f.default_json.empty()) return read(*this);
  const nlohmann::json holder = {{std::string(f.key), nlohmann::json::parse(f.default_json)}};
  IssueList scratch;
  ObjectReader defaults(holder, path_, scratch);
  auto value = read(defaults);
  if (!value) field_table_mismatch(f, "default");
  return value;
}

void ObjectReader::resolve(const Field& f, nlohmann::json value) {
  if (resolved_ != nullptr) (*resolved_)[std::string(f.key)] = std::move(value);
}

std::optional<std::int64_t> ObjectReader::integer(const Field& f) {
  expect_type(f, {FieldType::integer});
  const bool exact = lower(f) == upper(f);
  auto v = from_field<std::int64_t>(f, [&](ObjectReader& r) {
    return r.integer(f.key, exact ? INT64_MIN : lower(f), f.required);
  });
  if (v && (*v < lower(f) || *v > upper(f))) {
    issues_.add(child(f.key), exact ? fmt::format("expected {}, got {}", lower(f), *v)
                                    : fmt::format("expected an integer >= {} and <= {}, got {}",
                                                  lower(f), upper(f), *v));
    return std::nullopt;
  }
  if (v) resolve(f, *v);
  return v;
}

std::optional<int> ObjectReader::count(const Field& f) {
  expect_type(f, {FieldType::integer});
  if (upper(f) > INT32_MAX) field_table_mismatch(f, "max above a count's range");
  auto v = from_field<int>(f, [&](ObjectReader& r) {
    return r.count(f.key, lower(f), upper(f), f.required);
  });
  if (v) resolve(f, *v);
  return v;
}

std::optional<double> ObjectReader::number(const Field& f) {
  expect_type(f, {FieldType::number});
  auto v = from_field<double>(f, [&](ObjectReader& r) {
    return r.number(f.key, f.min, f.max, f.required, f.open_min);
  });
  if (v) resolve(f, *v);
  return v;
}

std::optional<bool> ObjectReader::boolean(const Field& f) {
  expect_type(f, {FieldType::boolean});
  auto v = from_field<bool>(f, [&](ObjectReader& r) { return r.boolean(f.key); });
  if (v) resolve(f, *v);
  return v;
}

std::optional<std::string> ObjectReader::string(const Field& f) {
  expect_type(f, {FieldType::text, FieldType::name, FieldType::choice});
  auto v = from_field<std::string>(f, [&](ObjectReader& r) {
    if (f.type == FieldType::text) return r.text(f.key, f.required);
    if (f.type == FieldType::name) return r.name(f.key, f.required);
    return r.string(f.key, f.required);
  });
  const auto names = choice_names(f);
  if (v && f.type == FieldType::choice &&
      std::find(names.begin(), names.end(), *v) == names.end()) {
    issues_.add(child(f.key), fmt::format("expected one of \"{}\", got \"{}\"",
                                          fmt::join(names, "\", \""), *v));
    return std::nullopt;
  }
  if (v) resolve(f, *v);
  return v;
}

std::optional<Time> ObjectReader::time(const Field& f) {
  expect_type(f, {FieldType::duration});
  auto v = from_field<Time>(f, [&](ObjectReader& r) { return r.time(f.key, f.min > 0, f.required); });
  if (v) resolve(f, time_text(*v));
  return v;
}

std::optional<BitsPerSecond> ObjectReader::bit_rate(const Field& f) {
  expect_type(f, {FieldType::rate});
  auto v = from_field<BitsPerSecond>(f, [&](ObjectReader& r) { return r.bit_rate(f.key, f.required); });
  if (v) resolve(f, format_bit_rate(*v));
  return v;
}

std::optional<Bytes> ObjectReader::bytes(const Field& f) {
  expect_type(f, {FieldType::size});
  auto v = from_field<Bytes>(f, [&](ObjectReader& r) { return r.bytes(f.key, f.required); });
  if (v) resolve(f, bytes_text(*v));
  return v;
}

}  // namespace lynxsim::fields
