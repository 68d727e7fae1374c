#include "sim/serving/request_metrics.hpp"

namespace lynxsim::serving {

Time RequestMetrics::tpot() const {
  if (output_tokens <= 1) return Time::zero();
  return Time::from_ps((last_token_at - first_commit_at).ps() / (output_tokens - 1));
}

}  // namespace lynxsim::serving
