#pragma once
// Summary statistics of a sample: mean and the 50th, 90th and 99th percentiles.
//
// Percentiles use linear interpolation between closest ranks (numpy's default, "linear", also
// Hyndman and Fan's definition 7): for a sample sorted ascending x_0 <= ... <= x_{n-1} and a
// quantile q in [0, 1], let h = (n - 1) * q, i = floor(h); then
//   P(q) = x_i + (h - i) * (x_{i+1} - x_i)      (P(q) = x_{n-1} when i = n - 1).
// So P(0.5) of an even-sized sample is the average of the two middle values, and every percentile
// of a one-element sample is that element. An empty sample summarizes to zeros with count 0.
// The mean is the plain arithmetic mean, accumulated in input order (deterministic).

#include <cstddef>
#include <span>

namespace lynxsim::report {

struct Stats {
  std::size_t count = 0;
  double mean = 0.0;
  double p50 = 0.0;
  double p90 = 0.0;
  double p99 = 0.0;
};

// The q-quantile (q in [0, 1]) of an ascending sorted, non-empty sample; throws
// std::invalid_argument for an empty sample or q outside [0, 1].
double percentile_sorted(std::span<const double> sorted, double q);

Stats summarize(std::span<const double> sample);

}  // namespace lynxsim::report
