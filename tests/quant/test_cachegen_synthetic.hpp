#pragma once
// Deterministic synthetic data for the range coder and CacheGen tests.
//
// Keys (per layer, C = heads * head_dim channels): K[t,c] = mu_c + sigma_c * z[t,c] with z an AR(1)
// series over tokens (rho = 0.8, unit variance, Gaussian innovations); two outlier channels per head
// have sigma 8x and |mu| 6x the others; then RoPE (theta 500000) rotates channel pairs (i, i + d/2)
// of every head by position * theta^(-2i/d). Values: V[t,c] = s_t * g[t,c], log-normal s_t
// (sigma 0.4) and Gaussian g, no channel structure. Every draw comes from splitmix64 and Box-Muller,
// so the data are the same on every platform.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cachegen_test {

class SplitMix {
public:
  explicit SplitMix(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next_u64() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next_u64() % n); }
  double normal() {
    const double u1 = uniform01() + 0x1.0p-53;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * uniform01());
  }

private:
  std::uint64_t state_;
};

struct SyntheticLayer {
  std::size_t num_tokens = 0;
  std::size_t num_channels = 0;
  std::vector<float> keys;
  std::vector<float> values;
};

inline void apply_rope(std::vector<float>& keys, std::size_t num_tokens, std::size_t heads,
                       std::size_t head_dim) {
  const std::size_t half = head_dim / 2;
  for (std::size_t t = 0; t < num_tokens; ++t) {
    for (std::size_t i = 0; i < half; ++i) {
      const double angle =
          static_cast<double>(t) * std::pow(500000.0, -2.0 * static_cast<double>(i) /
                                                          static_cast<double>(head_dim));
      const double cs = std::cos(angle);
      const double sn = std::sin(angle);
      for (std::size_t h = 0; h < heads; ++h) {
        float& a = keys[t * heads * head_dim + h * head_dim + i];
        float& b = keys[t * heads * head_dim + h * head_dim + i + half];
        const double x = a;
        const double y = b;
        a = static_cast<float>(x * cs - y * sn);
        b = static_cast<float>(x * sn + y * cs);
      }
    }
  }
}

inline SyntheticLayer make_synthetic_layer(std::size_t num_tokens, std::size_t heads,
                                           std::size_t head_dim, std::uint64_t seed) {
  SplitMix rng(seed);
  const std::size_t n = heads * head_dim;
  SyntheticLayer layer{num_tokens, n, std::vector<float>(num_tokens * n),
                       std::vector<float>(num_tokens * n)};
  std::vector<double> mu(n);
  std::vector<double> sigma(n);
  for (std::size_t c = 0; c < n; ++c) {
    const bool outlier = c % head_dim == 9 || c % head_dim == 100;
    sigma[c] = (outlier ? 8.0 : 1.0) * (0.7 + 0.6 * rng.uniform01());
    mu[c] = (outlier ? 6.0 : 0.5) * rng.normal();
  }
  std::vector<double> z(n, 0.0);
  constexpr double kRho = 0.8;
  const double innovation = std::sqrt(1.0 - kRho * kRho);
  for (std::size_t t = 0; t < num_tokens; ++t) {
    const double token_scale = std::exp(0.4 * rng.normal());
    for (std::size_t c = 0; c < n; ++c) {
      z[c] = t == 0 ? rng.normal() : kRho * z[c] + innovation * rng.normal();
      layer.keys[t * n + c] = static_cast<float>(mu[c] + sigma[c] * z[c]);
      layer.values[t * n + c] = static_cast<float>(token_scale * rng.normal());
    }
  }
  apply_rope(layer.keys, num_tokens, heads, head_dim);
  return layer;
}

}  // namespace cachegen_test
