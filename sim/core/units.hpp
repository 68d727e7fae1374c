#pragma once
// Physical quantities as types.
//
// Bytes are exact integers (int64): byte accounting of quantized KV must add up to the byte.
// Rates are doubles in SI base units: bits per second, bytes per second, FLOP per second. A bit rate
// and a byte rate are distinct types so that a factor of 8 is never silently lost; conversions are
// explicit. transfer_time() is the one place where bytes meet a rate.

#include <compare>
#include <cstdint>

#include "sim/core/time.hpp"

namespace lynxsim {

struct Bytes {
  std::int64_t value = 0;
  constexpr Bytes operator+(Bytes o) const { return {value + o.value}; }
  constexpr Bytes operator-(Bytes o) const { return {value - o.value}; }
  constexpr Bytes& operator+=(Bytes o) { value += o.value; return *this; }
  constexpr Bytes operator*(std::int64_t k) const { return {value * k}; }
  constexpr double as_double() const { return static_cast<double>(value); }
  constexpr auto operator<=>(const Bytes&) const = default;
};

struct BytesPerSecond;

struct BitsPerSecond {
  double value = 0.0;
  constexpr BytesPerSecond to_bytes() const;
  constexpr auto operator<=>(const BitsPerSecond&) const = default;
};

struct BytesPerSecond {
  double value = 0.0;
  constexpr BitsPerSecond to_bits() const { return {value * 8.0}; }
  constexpr auto operator<=>(const BytesPerSecond&) const = default;
};

constexpr BytesPerSecond BitsPerSecond::to_bytes() const { return {value / 8.0}; }

struct FlopsPerSecond {
  double value = 0.0;
  constexpr auto operator<=>(const FlopsPerSecond&) const = default;
};

// Seconds to move `bytes` at `rate`, as a double (solvers) and as a rounded Time (events).
constexpr double transfer_seconds(Bytes bytes, BytesPerSecond rate) {
  return bytes.as_double() / rate.value;
}
constexpr Time transfer_time(Bytes bytes, BytesPerSecond rate) {
  return Time::from_seconds(transfer_seconds(bytes, rate));
}

}  // namespace lynxsim
