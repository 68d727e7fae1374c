#include "sim/serving/request_metrics.hpp"

namespace lynxsim::serving {

Time RequestMetrics::tpot() const {
  if (output_tokens <= 1) return Time::zero();
  return Time::from_ps((last_token_at - first_commit_at).ps() / (output_tokens - 1));
}

std::string_view failure_cause_name(FailureCause cause) {
  switch (cause) {
    case FailureCause::none: return "";
    case FailureCause::kv_transfer_timeout: return "kv_transfer_timeout";
  }
  return "";
}

}  // namespace lynxsim::serving
