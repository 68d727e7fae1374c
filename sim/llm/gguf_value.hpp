#pragma once
// One metadata value of a GGUF file.
//
// GGUF metadata values are typed scalars (8/16/32/64-bit integers, f32, f64, bool), UTF-8 strings,
// or arrays of any of those (arrays may nest). Integers keep their signedness in `u`/`i`, floats
// are widened to double, and an array holds its elements in `items` with their common type in
// `element_type`. The accessors check the stored type and throw GgufError naming the key's type
// when it does not fit, so a model reader never silently misreads a field.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace lynxsim::llm {

class GgufError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class GgufValueType : std::uint32_t {
  U8 = 0,
  I8 = 1,
  U16 = 2,
  I16 = 3,
  U32 = 4,
  I32 = 5,
  F32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
  U64 = 10,
  I64 = 11,
  F64 = 12,
};

const char* gguf_value_type_name(GgufValueType type);

struct GgufValue {
  GgufValueType type = GgufValueType::U8;
  std::uint64_t u = 0;
  std::int64_t i = 0;
  double f = 0.0;
  bool b = false;
  std::string s;
  GgufValueType element_type = GgufValueType::U8;
  std::vector<GgufValue> items;

  bool is_integer() const;
  // Any integer type whose value fits in int64.
  std::int64_t as_int() const;
  // Any float or integer type.
  double as_float() const;
  bool as_bool() const;
  const std::string& as_string() const;
  std::vector<std::string> as_string_array() const;
  std::vector<std::int64_t> as_int_array() const;
  std::vector<double> as_float_array() const;
};

}  // namespace lynxsim::llm
