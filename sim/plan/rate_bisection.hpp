#pragma once
// The highest request rate a configuration sustains within its targets, by bisection on the rate
// (DistServe, OSDI'24, section 4: "binary search on the arrival rate" for the largest rate whose SLO
// attainment meets the target).
//
// meets(rate) runs one simulation at `rate` (requests per second) and says whether the targets
// hold. The search assumes attainment falls as the rate rises (monotone), and runs:
//   1. meets(min)? no: the configuration meets the targets at no rate of [min, max]: found = 0;
//   2. meets(max)? yes: found = max (the range caps it; `capped`);
//   3. otherwise, with lo = min (holds) and hi = max (fails), while hi > lo * (1 + tolerance):
//        mid = sqrt(lo * hi) (geometric: the rate range spans orders of magnitude);
//        meets(mid) ? lo = mid : hi = mid;
//      found = lo, the highest rate seen to hold.
// Stated tolerance: the true threshold r* (the rate where attainment crosses its target) lies in
// [found, found * (1 + tolerance)). The number of simulations is at most
// 2 + ceil(log2(ln(max / min) / ln(1 + tolerance))).

#include <functional>

namespace lynxsim::plan {

struct RateRange {
  double min = 0.0;        // requests per second, > 0
  double max = 0.0;        // > min
  double tolerance = 0.0;  // relative, > 0
};

struct RateSearchResult {
  double found = 0.0;       // highest rate seen to meet the targets; 0 when none did
  double failed_at = 0.0;   // lowest rate seen to fail (0 when none failed)
  bool capped = false;      // the targets held at the range's max
  int simulations = 0;
};

// Throws std::invalid_argument for a range that is not 0 < min < max with tolerance > 0.
RateSearchResult highest_rate(const RateRange& range, const std::function<bool(double)>& meets);

}  // namespace lynxsim::plan
