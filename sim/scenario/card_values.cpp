#include "sim/scenario/card_values.hpp"

#include <fmt/format.h>

#include "sim/core/unit_parse.hpp"
#include "sim/scenario/field_table.hpp"

namespace lynxsim::scenario {
namespace {

const FieldSection& profile_value() { return field_section("profile-value"); }

// The string at f.key parsed by `parse` to a value whose magnitude must be positive.
template <class Value, class Parse, class Magnitude>
std::optional<Value> positive_unit(ObjectReader& r, const Field& f, const char* expected,
                                   Parse parse, Magnitude magnitude) {
  const nlohmann::json* v = r.get(f.key, f.required);
  if (v == nullptr) return std::nullopt;
  try {
    if (!v->is_string()) throw UnitError("not a string");
    const Value value = parse(v->get<std::string>());
    if (!(magnitude(value) > 0.0)) throw UnitError("not positive");
    return value;
  } catch (const std::exception&) {
    r.issues().add(r.child(f.key), fmt::format("expected {}, got {}", expected, describe_value(*v)));
    return std::nullopt;
  }
}

void check_source(ObjectReader& r, std::string_view key, bool& has_source) {
  if (r.get(key) != nullptr) has_source = true;
  const auto text = r.string(profile_value()[key]);
  if (text && text->empty()) r.issues().add(r.child(key), "expected a non-empty string");
}

}  // namespace

std::optional<std::string> nonempty_text(ObjectReader& r, const Field& f) {
  auto v = r.string(f);
  if (v && v->empty()) {
    r.issues().add(r.child(f.key), "expected a non-empty string");
    return std::nullopt;
  }
  return v;
}

std::optional<FlopsPerSecond> flop_rate(ObjectReader& r, const Field& f) {
  if (f.type != FieldType::flop_rate) field_table_mismatch(f, "type");
  return positive_unit<FlopsPerSecond>(r, f, "an operation rate like \"989.4TFLOPS\"",
                                       parse_flops_rate, [](FlopsPerSecond x) { return x.value; });
}

std::optional<BytesPerSecond> byte_rate(ObjectReader& r, const Field& f) {
  if (f.type != FieldType::byte_rate) field_table_mismatch(f, "type");
  return positive_unit<BytesPerSecond>(r, f, "a byte rate like \"3.35TB/s\"", parse_byte_rate,
                                       [](BytesPerSecond x) { return x.value; });
}

std::optional<Bytes> card_size(ObjectReader& r, const Field& f) {
  auto v = r.bytes(f);
  if (v && f.open_min && v->value <= 0) {
    r.issues().add(r.child(f.key), fmt::format("expected a positive size, got \"{}\"",
                                               bytes_text(*v)));
    return std::nullopt;
  }
  return v;
}

const nlohmann::json* sourced_object(ObjectReader& r, const Field& f) {
  const nlohmann::json* q = r.get(f.key, f.required);
  if (q == nullptr) return nullptr;
  const std::string path = r.child(f.key);
  if (!q->is_object()) {
    r.issues().add(path, fmt::format("expected an object {{\"value\": ..., \"source\": \"...\"}}, "
                                     "got {}", describe_value(*q)));
    return nullptr;
  }
  ObjectReader source(*q, path, r.issues());
  bool has_source = false;
  check_source(source, "source", has_source);
  check_source(source, "comment", has_source);
  if (!has_source) {
    r.issues().add(pointer_child(path, "source"), "missing field (every value needs its source)");
  }
  return q;
}

}  // namespace lynxsim::scenario
