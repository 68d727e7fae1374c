#include "sim/llm/gguf_value.hpp"

#include <limits>

namespace lynxsim::llm {
namespace {

[[noreturn]] void wrong_type(const GgufValue& value, const char* wanted) {
  throw GgufError(std::string("GGUF metadata value is ") + gguf_value_type_name(value.type) +
                  ", expected " + wanted);
}

bool is_unsigned(GgufValueType type) {
  return type == GgufValueType::U8 || type == GgufValueType::U16 || type == GgufValueType::U32 ||
         type == GgufValueType::U64;
}

}  // namespace

const char* gguf_value_type_name(GgufValueType type) {
  switch (type) {
    case GgufValueType::U8: return "u8";
    case GgufValueType::I8: return "i8";
    case GgufValueType::U16: return "u16";
    case GgufValueType::I16: return "i16";
    case GgufValueType::U32: return "u32";
    case GgufValueType::I32: return "i32";
    case GgufValueType::F32: return "f32";
    case GgufValueType::Bool: return "bool";
    case GgufValueType::String: return "string";
    case GgufValueType::Array: return "array";
    case GgufValueType::U64: return "u64";
    case GgufValueType::I64: return "i64";
    case GgufValueType::F64: return "f64";
  }
  return "unknown";
}

bool GgufValue::is_integer() const {
  return is_unsigned(type) || type == GgufValueType::I8 || type == GgufValueType::I16 ||
         type == GgufValueType::I32 || type == GgufValueType::I64;
}

std::int64_t GgufValue::as_int() const {
  if (!is_integer()) {
    wrong_type(*this, "an integer");
  }
  if (is_unsigned(type)) {
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      throw GgufError("GGUF metadata integer " + std::to_string(u) + " does not fit in int64");
    }
    return static_cast<std::int64_t>(u);
  }
  return i;
}

double GgufValue::as_float() const {
  if (type == GgufValueType::F32 || type == GgufValueType::F64) {
    return f;
  }
  if (is_integer()) {
    return static_cast<double>(as_int());
  }
  wrong_type(*this, "a number");
}

bool GgufValue::as_bool() const {
  if (type != GgufValueType::Bool) {
    wrong_type(*this, "bool");
  }
  return b;
}

const std::string& GgufValue::as_string() const {
  if (type != GgufValueType::String) {
    wrong_type(*this, "string");
  }
  return s;
}

std::vector<std::string> GgufValue::as_string_array() const {
  if (type != GgufValueType::Array || element_type != GgufValueType::String) {
    wrong_type(*this, "an array of strings");
  }
  std::vector<std::string> out;
  out.reserve(items.size());
  for (const GgufValue& item : items) {
    out.push_back(item.s);
  }
  return out;
}

std::vector<std::int64_t> GgufValue::as_int_array() const {
  if (type != GgufValueType::Array) {
    wrong_type(*this, "an array of integers");
  }
  std::vector<std::int64_t> out;
  out.reserve(items.size());
  for (const GgufValue& item : items) {
    out.push_back(item.as_int());
  }
  return out;
}

std::vector<double> GgufValue::as_float_array() const {
  if (type != GgufValueType::Array) {
    wrong_type(*this, "an array of numbers");
  }
  std::vector<double> out;
  out.reserve(items.size());
  for (const GgufValue& item : items) {
    out.push_back(item.as_float());
  }
  return out;
}

}  // namespace lynxsim::llm
