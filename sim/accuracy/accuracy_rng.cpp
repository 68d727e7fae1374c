#include "sim/accuracy/accuracy_rng.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace lynxsim::accuracy {
namespace {

constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

std::uint64_t fnv1a64_append(std::uint64_t hash, std::string_view text) {
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::uint64_t fnv1a64(std::string_view text) { return fnv1a64_append(0xcbf29ce484222325ULL, text); }

std::uint64_t derive_seed(std::uint64_t seed, std::string_view purpose, int a, int b) {
  std::uint64_t state = seed;
  const std::uint64_t mixed = splitmix(state);
  std::uint64_t hash = fnv1a64_append(fnv1a64(purpose), ":");
  hash = fnv1a64_append(hash, std::to_string(a));
  hash = fnv1a64_append(hash, ":");
  return fnv1a64_append(hash, std::to_string(b)) ^ mixed;
}

AccuracyRng::AccuracyRng(std::uint64_t seed) {
  std::uint64_t state = seed;
  for (auto& word : s_) word = splitmix(state);
}

std::uint64_t AccuracyRng::next_u64() {
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

double AccuracyRng::uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double AccuracyRng::uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

int AccuracyRng::uniform_int(int n) {
  if (n <= 0) throw std::invalid_argument("uniform_int needs n > 0");
  return static_cast<int>((next_u64() >> 33) % static_cast<std::uint64_t>(n));
}

double AccuracyRng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_normal_;
  }
  double u = 0.0;
  double v = 0.0;
  double w = 0.0;
  do {
    u = 2.0 * uniform01() - 1.0;
    v = 2.0 * uniform01() - 1.0;
    w = u * u + v * v;
  } while (w >= 1.0 || w == 0.0);
  const double f = std::sqrt(-2.0 * std::log(w) / w);
  spare_normal_ = v * f;
  has_spare_ = true;
  return u * f;
}

double AccuracyRng::student_t(double nu) {
  if (!(nu > 0.0)) throw std::invalid_argument("student_t needs nu > 0");
  double u = 0.0;
  double w = 0.0;
  do {
    u = 2.0 * uniform01() - 1.0;
    const double v = 2.0 * uniform01() - 1.0;
    w = u * u + v * v;
  } while (w >= 1.0 || w == 0.0);
  return u * std::sqrt(nu * (std::pow(w, -2.0 / nu) - 1.0) / w);
}

double AccuracyRng::student_t_unit(double nu) {
  const double t = student_t(nu);
  return nu > 2.0 ? t * std::sqrt((nu - 2.0) / nu) : t;
}

double AccuracyRng::lognormal(double mu, double sigma) { return std::exp(mu + sigma * normal()); }

}  // namespace lynxsim::accuracy
