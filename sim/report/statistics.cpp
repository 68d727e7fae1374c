#include "sim/report/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace lynxsim::report {

double percentile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("percentile of an empty sample");
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("percentile outside [0, 1]");
  const double h = static_cast<double>(sorted.size() - 1) * q;
  const auto i = static_cast<std::size_t>(std::floor(h));
  if (i + 1 >= sorted.size()) return sorted.back();
  const double frac = h - static_cast<double>(i);
  return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

Stats summarize(std::span<const double> sample) {
  Stats stats;
  stats.count = sample.size();
  if (sample.empty()) return stats;
  double sum = 0.0;
  for (const double x : sample) sum += x;
  stats.mean = sum / static_cast<double>(sample.size());
  std::vector<double> sorted(sample.begin(), sample.end());
  std::sort(sorted.begin(), sorted.end());
  stats.p50 = percentile_sorted(sorted, 0.50);
  stats.p90 = percentile_sorted(sorted, 0.90);
  stats.p99 = percentile_sorted(sorted, 0.99);
  return stats;
}

}  // namespace lynxsim::report
