#pragma once
// Whether one simulated run meets a search's targets (DistServe's SLO attainment, with
// percentile bounds as AIConfigurator and Vidur-Search state them).
//
// For the run's requests (failed ones count as missing every bound), with TTFT read as
//   committed:   first token verified against the full KV (RequestMetrics::ttft_commit)
//   speculative: first token made, a draft for Lynx (RequestMetrics::ttft_speculative)
// the targets hold when every given bound holds:
//   P_q(TTFT) <= ttft             (q = ttft_percentile / 100; report/statistics.hpp's percentile)
//   P_q(TPOT) <= tpot             (q = tpot_percentile / 100)
//   attainment >= min_attainment  (attainment = share of requests with TTFT <= ttft and
//                                  TPOT <= tpot, the bounds given; DistServe's 90% is 0.9)
// A failed request's TTFT and TPOT are taken as infinite.

#include <optional>
#include <span>

#include "sim/core/time.hpp"
#include "sim/serving/request_metrics.hpp"

namespace lynxsim::plan {

enum class TtftReading { committed, speculative };

struct SloTargets {
  std::optional<Time> ttft;
  double ttft_percentile = 90.0;  // in (0, 100]
  std::optional<Time> tpot;
  double tpot_percentile = 90.0;
  std::optional<double> min_attainment;  // in (0, 1]
  TtftReading reading = TtftReading::committed;
};

struct SloOutcome {
  double ttft_s = 0.0;      // the TTFT percentile, seconds (infinite when a failed request reaches it)
  double tpot_s = 0.0;
  double attainment = 0.0;  // share of requests within both bounds given
  bool meets = false;
};

SloOutcome evaluate_slo(std::span<const serving::RequestMetrics> requests, const SloTargets& targets);

}  // namespace lynxsim::plan
