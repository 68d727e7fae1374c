#pragma once
// Simulated time.
//
// Time is an integer count of picoseconds in int64 (range about +/-106 days), as in htsim and ns-3:
// integer arithmetic keeps event order exact and runs reproducible across compilers. Models compute
// durations in double seconds inside their solvers and round once, to the nearest picosecond, when
// they schedule an event (Time::from_seconds). A Time is either a point on the simulator clock (names
// ending in _at) or a duration (names ending in _time); the type does not distinguish the two.
// Arithmetic is checked: a sum, difference or product outside int64 throws std::overflow_error
// (an internal error: scenarios whose times could not fit are rejected when they are read).

#include <cstdint>
#include <compare>
#include <limits>
#include <string>

namespace lynxsim {

class Time {
public:
  constexpr Time() = default;
  static constexpr Time from_ps(std::int64_t ps) { return Time(ps); }
  static constexpr Time from_ns(double ns) { return from_seconds(ns * 1e-9); }
  static constexpr Time from_us(double us) { return from_seconds(us * 1e-6); }
  static constexpr Time from_ms(double ms) { return from_seconds(ms * 1e-3); }
  // Rounds to the nearest picosecond; throws std::overflow_error outside the representable range.
  static constexpr Time from_seconds(double s);
  static constexpr Time zero() { return Time(0); }
  static constexpr Time max() { return Time(std::numeric_limits<std::int64_t>::max()); }

  constexpr std::int64_t ps() const { return ps_; }
  constexpr double seconds() const { return static_cast<double>(ps_) * 1e-12; }

  constexpr Time operator+(Time o) const {
    std::int64_t r = 0;
    if (__builtin_add_overflow(ps_, o.ps_, &r)) throw_arithmetic_overflow();
    return Time(r);
  }
  constexpr Time operator-(Time o) const {
    std::int64_t r = 0;
    if (__builtin_sub_overflow(ps_, o.ps_, &r)) throw_arithmetic_overflow();
    return Time(r);
  }
  constexpr Time& operator+=(Time o) { return *this = *this + o; }
  constexpr Time& operator-=(Time o) { return *this = *this - o; }
  constexpr Time operator*(std::int64_t k) const {
    std::int64_t r = 0;
    if (__builtin_mul_overflow(ps_, k, &r)) throw_arithmetic_overflow();
    return Time(r);
  }
  constexpr auto operator<=>(const Time&) const = default;

private:
  constexpr explicit Time(std::int64_t ps) : ps_(ps) {}
  [[noreturn]] static void throw_arithmetic_overflow();
  std::int64_t ps_ = 0;
};

void throw_time_overflow(double seconds);
[[noreturn]] void throw_time_arithmetic_overflow();

inline void Time::throw_arithmetic_overflow() { throw_time_arithmetic_overflow(); }

constexpr Time Time::from_seconds(double s) {
  const double ps = s * 1e12;
  if (!(ps > -9.2e18 && ps < 9.2e18)) throw_time_overflow(s);
  return Time(static_cast<std::int64_t>(ps < 0 ? ps - 0.5 : ps + 0.5));
}

constexpr Time max(Time a, Time b) { return a < b ? b : a; }
constexpr Time min(Time a, Time b) { return a < b ? a : b; }

// "1.5 ms", "250 us", ...: a human-readable rendering with an adaptive unit.
std::string to_string(Time t);

}  // namespace lynxsim
