#include "sim/plan/slo_targets.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "sim/report/statistics.hpp"

namespace lynxsim::plan {
namespace {

constexpr double kMissed = std::numeric_limits<double>::infinity();

double ttft_of(const serving::RequestMetrics& r, TtftReading reading) {
  if (r.failed()) return kMissed;
  return (reading == TtftReading::committed ? r.ttft_commit() : r.ttft_speculative()).seconds();
}

double tpot_of(const serving::RequestMetrics& r) { return r.failed() ? kMissed : r.tpot().seconds(); }

double percentile(std::vector<double> sample, double percent) {
  if (sample.empty()) return 0.0;
  std::sort(sample.begin(), sample.end());
  const double p = report::percentile_sorted(sample, percent / 100.0);
  return std::isnan(p) ? kMissed : p;
}

bool within(double value, const std::optional<Time>& bound) { return !bound || value <= bound->seconds(); }

}  // namespace

SloOutcome evaluate_slo(std::span<const serving::RequestMetrics> requests, const SloTargets& targets) {
  std::vector<double> ttft;
  std::vector<double> tpot;
  std::size_t attained = 0;
  for (const serving::RequestMetrics& r : requests) {
    ttft.push_back(ttft_of(r, targets.reading));
    tpot.push_back(tpot_of(r));
    if (within(ttft.back(), targets.ttft) && within(tpot.back(), targets.tpot)) ++attained;
  }
  SloOutcome out;
  out.ttft_s = percentile(ttft, targets.ttft_percentile);
  out.tpot_s = percentile(tpot, targets.tpot_percentile);
  out.attainment = requests.empty() ? 0.0 : static_cast<double>(attained) / static_cast<double>(requests.size());
  out.meets = !requests.empty() && within(out.ttft_s, targets.ttft) && within(out.tpot_s, targets.tpot) &&
              (!targets.min_attainment || out.attainment >= *targets.min_attainment);
  return out;
}

}  // namespace lynxsim::plan
