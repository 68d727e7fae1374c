#pragma once
// Deterministic test inputs for the quantization kernels: splitmix64 and Box-Muller, so the same
// seed gives the same tensors on every platform.

#include <cmath>
#include <cstdint>
#include <vector>

namespace quant_test {

class TestRng {
public:
  explicit TestRng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next_u64() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  double normal() {
    const double u1 = 1.0 - uniform01();
    const double u2 = uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

private:
  std::uint64_t state_;
};

// Gaussian channels [tokens][channels]; the first `outliers` channels have 10x the spread, each
// channel has its own offset.
inline std::vector<float> gaussian_channels(int tokens, int channels, int outliers, std::uint64_t seed) {
  TestRng rng(seed);
  std::vector<double> mean(static_cast<std::size_t>(channels));
  for (auto& m : mean) {
    m = 0.5 * rng.normal();
  }
  std::vector<float> x(static_cast<std::size_t>(tokens) * static_cast<std::size_t>(channels));
  for (int t = 0; t < tokens; ++t) {
    for (int c = 0; c < channels; ++c) {
      const double scale = c < outliers ? 10.0 : 1.0;
      x[static_cast<std::size_t>(t * channels + c)] =
          static_cast<float>(scale * (mean[static_cast<std::size_t>(c)] + rng.normal()));
    }
  }
  return x;
}

// Heavy-tailed values with a random per-token scale, spanning several orders of magnitude.
inline std::vector<float> wild_values(int tokens, int channels, std::uint64_t seed) {
  TestRng rng(seed);
  std::vector<float> x(static_cast<std::size_t>(tokens) * static_cast<std::size_t>(channels));
  for (int t = 0; t < tokens; ++t) {
    const double token_scale = std::exp(2.0 * rng.normal());
    for (int c = 0; c < channels; ++c) {
      const double z = rng.normal();
      x[static_cast<std::size_t>(t * channels + c)] = static_cast<float>(token_scale * z * z * z);
    }
  }
  return x;
}

}  // namespace quant_test
