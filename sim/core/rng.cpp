#include "sim/core/rng.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace lynxsim {
namespace {
constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t fnv1a64_append(std::uint64_t hash, std::string_view text) {
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::uint64_t fnv1a64(std::string_view text) { return fnv1a64_append(0xcbf29ce484222325ULL, text); }

Xoshiro256::Xoshiro256(std::uint64_t seed) {
  std::uint64_t st = seed;
  for (auto& w : s_) w = splitmix64(st);
}

RngStream::RngStream(std::uint64_t seed) : engine_(seed) {}

RngStream RngStream::named(std::uint64_t scenario_seed, std::string_view name) {
  std::uint64_t st = scenario_seed;
  const std::uint64_t mixed = splitmix64(st) ^ fnv1a64(name);
  return RngStream(mixed);
}

std::uint64_t Xoshiro256::next_u64() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t RngStream::next_u64() { return engine_.next_u64(); }

double RngStream::uniform01() { return engine_.uniform01(); }

double RngStream::uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

std::uint64_t RngStream::uniform_int(std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("uniform_int(0)");
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t x = next_u64();
  while (x >= limit) x = next_u64();
  return x % n;
}

double RngStream::normal(double mean, double stddev) {
  const double u1 = 1.0 - uniform01();
  const double u2 = uniform01();
  return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double RngStream::exponential(double rate) { return -std::log1p(-uniform01()) / rate; }

double RngStream::gamma(double shape, double scale) {
  if (!(shape > 0.0) || !(scale > 0.0)) throw std::invalid_argument("gamma needs shape, scale > 0");
  if (shape < 1.0) {
    const double u = 1.0 - uniform01();
    return gamma(shape + 1.0, scale) * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  while (true) {
    double x = 0.0;
    double v = 0.0;
    do {
      x = normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = 1.0 - uniform01();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v * scale;
  }
}

double RngStream::lognormal(double mu, double sigma) { return std::exp(mu + sigma * normal()); }

double RngStream::student_t(double nu) {
  const double chi2 = 2.0 * gamma(nu / 2.0, 1.0);
  return normal() / std::sqrt(chi2 / nu);
}

bool RngStream::bernoulli(double p) { return uniform01() < p; }

}  // namespace lynxsim
