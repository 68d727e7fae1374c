#include "sim/accuracy/accuracy_rng.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace lynxsim::accuracy {
std::uint64_t derive_seed(std::uint64_t seed, std::string_view purpose, int a, int b) {
  std::uint64_t state = seed;
  const std::uint64_t mixed = splitmix64(state);
  std::uint64_t hash = fnv1a64_append(fnv1a64(purpose), ":");
  hash = fnv1a64_append(hash, std::to_string(a));
  hash = fnv1a64_append(hash, ":");
  return fnv1a64_append(hash, std::to_string(b)) ^ mixed;
}

AccuracyRng::AccuracyRng(std::uint64_t seed) : engine_(seed) {}

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
