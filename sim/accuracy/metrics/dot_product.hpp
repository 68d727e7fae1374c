#pragma once
// Float32 dot product with eight independent partial sums, a fixed summation order the compiler can
// vectorize without -ffast-math (attention kernels also accumulate in float32, in blocks). The
// result is deterministic for a given head_dim.

#include <array>

namespace lynxsim::accuracy {

inline float dot_product(const float* a, const float* b, int n) {
  std::array<float, 8> acc{};
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int j = 0; j < 8; ++j) acc[static_cast<std::size_t>(j)] += a[i + j] * b[i + j];
  }
  float sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

}  // namespace lynxsim::accuracy
