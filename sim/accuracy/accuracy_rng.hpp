#pragma once
// The deterministic random numbers of the accuracy layer.
//
// The generator is sim/core's (xoshiro256** seeded through splitmix64; std::*_distribution differ
// between standard libraries, so no standard distribution is used). Every (layer, head, purpose)
// block derives its own stream from the run seed with derive_seed(), so sampling fewer blocks or
// more methods never shifts the numbers of another block. The distributions below are the ones the
// accuracy measurements were built on (the polar methods), kept so measured figures do not move.
//   uniform01:  53 random bits scaled to [0, 1)
//   normal:     Marsaglia's polar method (the second value of a pair is kept for the next call)
//   student_t:  Bailey's polar method, T = U·sqrt(nu·(W^(−2/nu) − 1)/W), W = U² + V² < 1,
//               unit-variance scaled by sqrt((nu − 2)/nu) when nu > 2 (student_t_unit)
//   lognormal:  exp(mu + sigma·N)

#include <array>
#include <cstdint>
#include <string_view>

#include "sim/core/rng.hpp"

namespace lynxsim::accuracy {

std::uint64_t derive_seed(std::uint64_t seed, std::string_view purpose, int a, int b);

class AccuracyRng {
public:
  explicit AccuracyRng(std::uint64_t seed);

  std::uint64_t next_u64() { return engine_.next_u64(); }
  double uniform01() { return engine_.uniform01(); }
  double uniform(double lo, double hi);
  int uniform_int(int n);  // in [0, n), n > 0
  double normal();
  double student_t(double nu);
  double student_t_unit(double nu);  // variance 1 when nu > 2
  double lognormal(double mu, double sigma);

private:
  Xoshiro256 engine_;
  double spare_normal_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace lynxsim::accuracy
