#include "sim/accuracy/kv/rope.hpp"

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace lynxsim::accuracy {

void apply_rope(float* rows, int tokens, int head_dim, int first_position, double theta) {
  if (head_dim <= 0 || head_dim % 2 != 0) throw std::invalid_argument("apply_rope: head_dim must be even");
  const int half = head_dim / 2;
  std::vector<double> inv_freq(static_cast<std::size_t>(half));
  for (int i = 0; i < half; ++i) inv_freq[static_cast<std::size_t>(i)] = std::pow(theta, -2.0 * i / head_dim);
  for (int r = 0; r < tokens; ++r) {
    float* x = rows + static_cast<std::size_t>(r) * static_cast<std::size_t>(head_dim);
    const double position = static_cast<double>(first_position) + r;
    for (int i = 0; i < half; ++i) {
      const double angle = position * inv_freq[static_cast<std::size_t>(i)];
      const double c = std::cos(angle);
      const double s = std::sin(angle);
      const double a = x[i];
      const double b = x[i + half];
      x[i] = static_cast<float>(a * c - b * s);
      x[i + half] = static_cast<float>(a * s + b * c);
    }
  }
}

}  // namespace lynxsim::accuracy
