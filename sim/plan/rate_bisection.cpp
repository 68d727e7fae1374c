#include "sim/plan/rate_bisection.hpp"

#include <cmath>
#include <stdexcept>

namespace lynxsim::plan {

RateSearchResult highest_rate(const RateRange& range, const std::function<bool(double)>& meets) {
  if (!(range.min > 0.0 && range.max > range.min && range.tolerance > 0.0)) {
    throw std::invalid_argument("rate range must have 0 < min < max and a tolerance > 0");
  }
  RateSearchResult r;
  ++r.simulations;
  if (!meets(range.min)) {
    r.failed_at = range.min;
    return r;
  }
  ++r.simulations;
  if (meets(range.max)) {
    r.found = range.max;
    r.capped = true;
    return r;
  }
  double lo = range.min;
  double hi = range.max;
  while (hi > lo * (1.0 + range.tolerance)) {
    const double mid = std::sqrt(lo * hi);
    ++r.simulations;
    if (meets(mid)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  r.found = lo;
  r.failed_at = hi;
  return r;
}

}  // namespace lynxsim::plan
