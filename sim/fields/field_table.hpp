#pragma once
// The declared keys of a JSON input's objects (a scenario's sections, the cards it names, the KV
// profiles and calibration files of sim/store): each key once, with its type, unit, default, bounds
// and one line of documentation.
//
// A section's readers (the *_section.cpp files) read every key through its Field
// (ObjectReader's Field accessors, json_fields.hpp): the bounds it is checked against, the default
// an absent key takes, and the form the resolved scenario writes all come from the table, and the
// key tables of docs/scenario.md are rendered from it (`lynxsim keys`, and a test that fails when
// the docs differ). A key that no Field declares is unknown and an error.
//
// Defaults are JSON text as a scenario writes it ("256", "\"1s\"", "\"layerwise\""); a default
// goes through the same checks as a value from a file, and one that fails them is an internal
// error. A key whose default depends on other keys (the scenario seed, whether a section is given)
// has no default text and says so in default_doc.

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lynxsim::fields {

enum class FieldType {
  integer,    // a JSON integer in [min, max]
  number,     // a JSON number in [min, max], or (min, max] when open_min
  boolean,
  text,       // any string (free text)
  name,       // a string without control characters, at most kMaxNameLength characters (object_reader.hpp)
  choice,     // one of `choices`, written "a|b|c"; the first is listed first in docs
  duration,   // a string with a time unit ("10us"); > 0 when min > 0
  rate,       // a string with a bit-rate unit ("100Gbps"), > 0
  size,       // a string with a byte unit ("64GiB"), >= 0; > 0 when open_min
  flop_rate,  // a string with an operation-rate unit ("989.4TFLOPS", "1979TOPS"), > 0
  byte_rate,  // a string with a byte-rate unit ("3.35TB/s"), > 0
  structured  // an object or array read by its own reader (its own table or doc line)
};

inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();
// The min of a positive duration: one tick of the clock (sim/core/time.hpp counts picoseconds).
inline constexpr double kPositiveDuration = 1e-12;

struct Field {
  std::string_view key;
  FieldType type = FieldType::structured;
  std::string_view doc;
  std::string_view default_json;  // "" when the key has no fixed default
  std::string_view default_doc;   // docs' default column when default_json is empty
  double min = -kUnbounded;
  double max = kUnbounded;
  std::string_view choices;
  bool required = false;
  bool open_min = false;
};

// One key table: the keys of one JSON object (or one form of it), as docs/scenario.md shows them.
struct FieldSection {
  std::string_view id;       // the docs marker: <!-- keys: id -->
  std::string_view pointer;  // where the object sits ("/serving", "/workload/trace")
  std::span<const Field> fields;

  // The field named `key`; throws std::logic_error when the table has no such key (a reader asking
  // for an undeclared key is a bug, caught by every test that reads a scenario).
  const Field& operator[](std::string_view key) const;
};

std::vector<std::string_view> choice_names(const Field& f);
// The table as docs/scenario.md writes it: | key | value | default |, one row per field.
std::string render_key_table(const FieldSection& section);

}  // namespace lynxsim::fields
