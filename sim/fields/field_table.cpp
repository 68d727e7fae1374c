#include "sim/fields/field_table.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace lynxsim::fields {
namespace {

std::string bound(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", static_cast<std::int64_t>(v));
  return fmt::format("{}", v);
}

std::string number_phrase(const Field& f, const char* what) {
  const bool has_min = std::isfinite(f.min);
  const bool has_max = std::isfinite(f.max);
  if (has_min && has_max && f.type == FieldType::integer) {
    return f.min == f.max ? bound(f.min) : fmt::format("{} in {}..{}", what, bound(f.min), bound(f.max));
  }
  if (has_min && has_max) {
    return fmt::format("{} in {}{}, {}]", what, f.open_min ? "(" : "[", bound(f.min), bound(f.max));
  }
  if (has_min) return fmt::format("{} {} {}", what, f.open_min ? ">" : ">=", bound(f.min));
  if (has_max) return fmt::format("{} <= {}", what, bound(f.max));
  return what;
}

std::string choice_phrase(const Field& f) {
  std::string text;
  const auto names = choice_names(f);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += fmt::format("`\"{}\"`", names[i]);
  }
  return text;
}

std::string type_phrase(const Field& f) {
  switch (f.type) {
    case FieldType::integer: return number_phrase(f, "integer");
    case FieldType::number: return number_phrase(f, "number");
    case FieldType::boolean: return "bool";
    case FieldType::text: return "string";
    case FieldType::name: return "name";
    case FieldType::choice: return choice_phrase(f);
    case FieldType::duration: return f.min > 0 ? "positive duration" : "duration";
    case FieldType::rate: return "rate";
    case FieldType::size: return f.open_min ? "positive size" : "size";
    case FieldType::flop_rate: return "operation rate";
    case FieldType::byte_rate: return "byte rate";
    case FieldType::structured: return "";
  }
  return "";
}

std::string default_cell(const Field& f) {
  if (f.required) return "required";
  if (!f.default_json.empty()) return fmt::format("`{}`", f.default_json);
  return f.default_doc.empty() ? "none" : std::string(f.default_doc);
}

}  // namespace

const Field& FieldSection::operator[](std::string_view key) const {
  const auto it = std::find_if(fields.begin(), fields.end(),
                               [&](const Field& f) { return f.key == key; });
  if (it == fields.end()) {
    throw std::logic_error(fmt::format("field table \"{}\" declares no key \"{}\"", id, key));
  }
  return *it;
}

std::vector<std::string_view> choice_names(const Field& f) {
  std::vector<std::string_view> names;
  std::string_view rest = f.choices;
  while (!rest.empty()) {
    const auto bar = rest.find('|');
    names.push_back(rest.substr(0, bar));
    rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
  }
  return names;
}

std::string render_key_table(const FieldSection& section) {
  std::string table = "| key | value | default |\n|---|---|---|\n";
  for (const Field& f : section.fields) {
    const std::string type = type_phrase(f);
    const std::string sep = type.empty() || f.doc.empty() ? "" : ": ";
    table += fmt::format("| `{}` | {}{}{} | {} |\n", f.key, type, sep, f.doc, default_cell(f));
  }
  return table;
}

}  // namespace lynxsim::fields
