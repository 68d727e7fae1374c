#pragma once
// Rejection of non-finite KV inputs: a NaN or an infinity has no place in a min/max quantizer (it
// would poison the group's scale), so every kernel reports the first one with its position.

#include <cstddef>

#include "sim/quant/tensor_view.hpp"

namespace lynxsim::quant {

// Throws std::invalid_argument naming the first non-finite element of rows [token_begin, token_end).
void reject_non_finite(BlockView input, int token_begin, int token_end);

// True when every value of values[0, count) is finite (vectorizable: finite·0 = 0, otherwise NaN).
inline bool all_finite(const float* values, std::size_t count) {
  float probe[8] = {0.0F, 0.0F, 0.0F, 0.0F, 0.0F, 0.0F, 0.0F, 0.0F};
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    for (std::size_t j = 0; j < 8; ++j) {
      probe[j] += values[i + j] * 0.0F;
    }
  }
  for (; i < count; ++i) {
    probe[0] += values[i] * 0.0F;
  }
  float sum = 0.0F;
  for (float p : probe) {
    sum += p;
  }
  return sum == 0.0F;
}

}  // namespace lynxsim::quant
