#pragma once
// Token-length distributions for synthetic workloads (context and output lengths).
//
//   fixed       always `value`
//   uniform     an integer uniform on [min, max] (both inclusive)
//   lognormal   round(exp(mu + sigma * N(0, 1))) with mu, sigma of the underlying normal; a median
//               m gives mu = ln(m)
//   empirical   a value drawn uniformly from a list (e.g. the lengths of a real trace)
// Every draw is then clamped to [min, max] (defaults 1 and 2^31 - 1), so a length is always >= 1.
// Draws use the caller's RngStream, so a named stream per quantity keeps them reproducible.

#include <cstdint>
#include <filesystem>
#include <vector>

#include "sim/core/rng.hpp"

namespace lynxsim::serving {

enum class LengthKind { fixed, uniform, lognormal, empirical };

struct LengthDistribution {
  LengthKind kind = LengthKind::fixed;
  int value = 1;
  int min = 1;
  int max = 2'147'483'647;
  double mu = 0.0;
  double sigma = 0.0;
  std::vector<int> values{};

  // Throws std::invalid_argument for an impossible distribution.
  void validate() const;
  int sample(RngStream& rng) const;
};


}  // namespace lynxsim::serving
