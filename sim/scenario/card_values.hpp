#pragma once
// Reading the values of a card (card_fields.hpp) through ObjectReader: sourced values
// {"value": v, "source": "..."} and the operation and byte rates a hardware profile states.
//
// sourced() reads the object at f.key, checks its "source" and "comment" (the profile-value
// table: at least one, each non-empty) and reads its "value" with f's own type and bounds, so a
// problem is reported at /<key>/value ("expected a positive duration like \"10us\", got 30") or
// /<key>/source.

#include <optional>
#include <string>

#include "sim/core/units.hpp"
#include "sim/scenario/json_fields.hpp"

namespace lynxsim::scenario {

// A text field that must not be empty ("expected a non-empty string").
std::optional<std::string> nonempty_text(ObjectReader& r, const Field& f);

// A flop_rate, byte_rate or size field (a size > 0 when f.open_min).
std::optional<FlopsPerSecond> flop_rate(ObjectReader& r, const Field& f);
std::optional<BytesPerSecond> byte_rate(ObjectReader& r, const Field& f);
std::optional<Bytes> card_size(ObjectReader& r, const Field& f);

// The object at f.key with its source checked; nullptr when absent (an issue when required) or
// not an object (an issue).
const nlohmann::json* sourced_object(ObjectReader& r, const Field& f);

// The sourced value of f, read by `read(value_reader, value_field)`; nullopt when absent or wrong.
template <class Read>
auto sourced(ObjectReader& r, const Field& f, Read&& read) -> decltype(read(r, f)) {
  const nlohmann::json* q = sourced_object(r, f);
  if (q == nullptr) return std::nullopt;
  ObjectReader inner(*q, r.child(f.key), r.issues());
  Field value = f;
  value.key = "value";
  value.required = true;
  auto v = read(inner, value);
  inner.get("source");
  inner.get("comment");
  inner.finish();
  return v;
}

}  // namespace lynxsim::scenario
