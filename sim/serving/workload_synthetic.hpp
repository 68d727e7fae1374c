#pragma once
// Synthetic workloads: arrivals from a renewal process, lengths from distributions.
//
// Inter-arrival gaps are i.i.d. with mean 1 / rate:
//   poisson   exponential gaps (coefficient of variation 1)
//   gamma     Gamma(shape k, scale 1 / (k * rate)) gaps with burstiness b = 1 / k, the squared
//             coefficient of variation: b = 1 is Poisson, b > 1 is burstier, b < 1 more regular
// Arrivals start at `start` (the first request arrives one gap after it) and stop after `count`
// requests or at `start + duration`, whichever comes first (at least one of the two must be set).
// Context and output lengths are drawn independently per request. Named RngStreams seeded from the
// scenario seed ("workload.arrivals", "workload.context", "workload.output") make the workload the
// same for every method and every run with that seed.

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/serving/length_distribution.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::serving {

enum class ArrivalProcess { poisson, gamma };

struct SyntheticWorkload {
  ArrivalProcess process = ArrivalProcess::poisson;
  double rate_per_s = 1.0;
  double burstiness = 1.0;
  std::optional<int> count;
  std::optional<Time> duration;
  Time start = Time::zero();
  LengthDistribution context;
  LengthDistribution output;
};

// Throws std::invalid_argument for a non-positive rate or burstiness, or neither count nor duration.
std::vector<RequestSpec> generate_workload(const SyntheticWorkload& spec, std::uint64_t seed);

}  // namespace lynxsim::serving
