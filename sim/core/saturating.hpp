#pragma once
// int64 arithmetic that saturates at INT64_MAX instead of overflowing, for size estimates whose
// factors come from user input (a product past the limit only has to compare as "too large").
// Arguments are non-negative.

#include <cstdint>
#include <limits>

namespace lynxsim {

inline constexpr std::int64_t kSaturatedCount = std::numeric_limits<std::int64_t>::max();

inline std::int64_t saturating_mul(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  return __builtin_mul_overflow(a, b, &out) ? kSaturatedCount : out;
}

inline std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  return __builtin_add_overflow(a, b, &out) ? kSaturatedCount : out;
}

}  // namespace lynxsim
