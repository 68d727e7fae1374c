#pragma once
// Portable random numbers.
//
// std::*_distribution differ between standard libraries, so every distribution here is our own and
// gives the same numbers on every platform for the same seed. The generator is xoshiro256**
// (Blackman and Vigna), seeded through splitmix64. A named stream's seed is a hash (FNV-1a, 64-bit)
// of its name mixed with the scenario seed, so adding a new stream never shifts the numbers of the
// others.
//   uniform01:   53 random bits scaled to [0, 1)
//   normal:      Box-Muller on two uniforms (no cached second value: one call, two uniforms)
//   exponential: -ln(1 - U) / rate
//   gamma:       Marsaglia-Tsang (shape >= 1; shape < 1 by the U^(1/shape) boost)
//   lognormal:   exp(mu + sigma * N)
//   student_t:   N / sqrt(chi2_nu / nu) with chi2_nu = 2 * Gamma(nu / 2)

#include <array>
#include <cstdint>
#include <string_view>

namespace lynxsim {

// The generator of every random stream: xoshiro256** seeded with four splitmix64 outputs.
class Xoshiro256 {
public:
  explicit Xoshiro256(std::uint64_t seed);
  std::uint64_t next_u64();
  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

private:
  std::array<std::uint64_t, 4> s_{};
};

class RngStream {
public:
  explicit RngStream(std::uint64_t seed);
  static RngStream named(std::uint64_t scenario_seed, std::string_view name);

  std::uint64_t next_u64();
  double uniform01();
  double uniform(double lo, double hi);
  std::uint64_t uniform_int(std::uint64_t n);  // in [0, n), unbiased
  double normal(double mean = 0.0, double stddev = 1.0);
  double exponential(double rate);
  double gamma(double shape, double scale);
  double lognormal(double mu, double sigma);
  double student_t(double nu);
  bool bernoulli(double p);

private:
  Xoshiro256 engine_;
};

std::uint64_t fnv1a64(std::string_view text);
// FNV-1a 64 of `text` continuing from `hash` (fnv1a64(a + b) == fnv1a64_append(fnv1a64(a), b)).
std::uint64_t fnv1a64_append(std::uint64_t hash, std::string_view text);
std::uint64_t splitmix64(std::uint64_t& state);

}  // namespace lynxsim
