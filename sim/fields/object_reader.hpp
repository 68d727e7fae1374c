#pragma once
// Strict, error-collecting reading of a JSON input (a scenario, a card, a KV profile, a calibration
// file): the one reader of every JSON file lynxsim takes.
//
// An ObjectReader wraps one JSON object at a JSON pointer ("/network"). Each accessor reads one
// key, remembers that the key is known, and on a wrong value records an issue at the key's pointer
// and returns std::nullopt, so parsing continues and every problem of a file is reported at once.
// finish() records "unknown key" for every key no accessor asked for.
// Quantities with a unit must be strings with that unit ("25Gbps", "10us"); a bare number is an
// error that says what was expected and what was found:
//   /network/bandwidth: expected a rate like "100Gbps", got 25

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/fields/field_table.hpp"
#include "sim/fields/issues.hpp"

namespace lynxsim::fields {

// A short rendering of a JSON value for messages: 25, "abc", an object, an array.
std::string describe_value(const nlohmann::json& value);
// A duration as scenario files write it ("0s", "10us", "1.5ms"); parses back to the same Time.
std::string time_text(Time t);
// A size as scenario files write it ("64GiB", or exact bytes "1000001B"); parses back exactly.
std::string bytes_text(Bytes b);
// The pointer of `key` under `path`, with "~" and "/" escaped as RFC 6901 requires.
std::string pointer_child(const std::string& path, std::string_view key);

// Names (presets, methods, hosts): preset names become file names, which may have 255 bytes.
inline constexpr std::size_t kMaxNameLength = 200;

// A name (preset, method, host) has no control character and at most kMaxNameLength characters;
// otherwise records an issue at `path` and returns false.
bool check_name(const std::string& name, const std::string& path, IssueList& issues);

class ObjectReader {
public:
  ObjectReader(const nlohmann::json& value, std::string path, IssueList& issues);

  bool valid() const { return object_ != nullptr; }
  const std::string& path() const { return path_; }
  std::string child(std::string_view key) const { return pointer_child(path_, key); }
  IssueList& issues() { return issues_; }

  // The value of `key`, or nullptr when absent (recording "missing field" when required).
  const nlohmann::json* get(std::string_view key, bool required = false);

  std::optional<std::int64_t> integer(std::string_view key, std::int64_t min_value,
                                      bool required = false);
  // An integer in [min_value, max_value] (max_value <= INT32_MAX) for an int field: the bound is
  // checked on the full int64 value, so nothing is narrowed.
  std::optional<int> count(std::string_view key, std::int64_t min_value, std::int64_t max_value,
                           bool required = false);
  // A number in [min_value, max_value], or in (min_value, max_value] when open_min.
  std::optional<double> number(std::string_view key, double min_value, double max_value,
                               bool required = false, bool open_min = false);
  // A string without control characters (they would split a message line).
  std::optional<std::string> string(std::string_view key, bool required = false);
  // Any string: free text such as a description.
  std::optional<std::string> text(std::string_view key, bool required = false);
  // A string that passes check_name.
  std::optional<std::string> name(std::string_view key, bool required = false);
  std::optional<bool> boolean(std::string_view key);
  std::optional<Time> time(std::string_view key, bool positive, bool required = false);
  std::optional<BitsPerSecond> bit_rate(std::string_view key, bool required = false);
  // A size like "64GiB"; zero is allowed ("0B").
  std::optional<Bytes> bytes(std::string_view key, bool required = false);

  // Field accessors (field_reader.cpp): the key's value checked against its declared Field, or
  // the Field's default when the key is absent; nullopt when the value is wrong (an issue is
  // recorded) or absent without a default ("missing field" when required). After resolve_into(),
  // each writes the value it returns into that object in the form a scenario writes it.
  void resolve_into(nlohmann::json& resolved) { resolved_ = &resolved; }
  std::optional<std::int64_t> integer(const Field& f);
  std::optional<int> count(const Field& f);
  std::optional<double> number(const Field& f);
  std::optional<bool> boolean(const Field& f);
  // A text, name or choice field.
  std::optional<std::string> string(const Field& f);
  std::optional<Time> time(const Field& f);
  std::optional<BitsPerSecond> bit_rate(const Field& f);
  std::optional<Bytes> bytes(const Field& f);
  // A choice field mapped to its enum value; an absent or wrong value gives the Field's default.
  template <class Enum>
  Enum choice(const Field& f, std::initializer_list<std::pair<std::string_view, Enum>> values);

  void finish();

private:
  // `read` applied to this object when f's key is present or has no default, else to an object
  // holding only the default (which must pass).
  template <class T, class Read>
  std::optional<T> from_field(const Field& f, Read&& read);
  void resolve(const Field& f, nlohmann::json value);

  const nlohmann::json* object_ = nullptr;
  std::string path_;
  IssueList& issues_;
  std::set<std::string, std::less<>> known_;
  nlohmann::json* resolved_ = nullptr;
};

// Throws std::logic_error: a Field's table and its reader disagree (an internal error).
[[noreturn]] void field_table_mismatch(const Field& f, std::string_view what);
// The default of a choice field, as a name.
std::string default_choice(const Field& f);

template <class Enum>
Enum ObjectReader::choice(const Field& f,
                          std::initializer_list<std::pair<std::string_view, Enum>> values) {
  const auto find = [&](std::string_view name) {
    const auto it = std::find_if(values.begin(), values.end(),
                                 [&](const auto& v) { return v.first == name; });
    if (it == values.end()) field_table_mismatch(f, name);
    return it->second;
  };
  const auto names = choice_names(f);
  if (names.empty() || names.size() != values.size()) field_table_mismatch(f, "choices");
  if (const auto chosen = string(f)) return find(*chosen);
  return find(f.default_json.empty() ? std::string(names.front()) : default_choice(f));
}

// Reads `key` as one of the named choices (the first is the default), records the chosen name in
// resolved[key], and on an unknown name lists the choices.
template <class Enum>
Enum read_choice(ObjectReader& r, std::string_view key,
                 std::initializer_list<std::pair<const char*, Enum>> choices,
                 nlohmann::json& resolved) {
  const auto text = r.string(key);
  Enum chosen = choices.begin()->second;
  if (text) {
    const auto it = std::find_if(choices.begin(), choices.end(),
                                 [&](const auto& c) { return *text == c.first; });
    std::vector<std::string> names;
    for (const auto& c : choices) names.emplace_back(c.first);
    if (it == choices.end()) {
      r.issues().add(r.child(key), fmt::format("expected one of \"{}\", got \"{}\"",
                                               fmt::join(names, "\", \""), *text));
    } else {
      chosen = it->second;
    }
  }
  for (const auto& c : choices) {
    if (c.second == chosen) resolved[std::string(key)] = c.first;
  }
  return chosen;
}

}  // namespace lynxsim::fields
