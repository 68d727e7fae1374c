#include "sim/serving/request_router.hpp"

namespace lynxsim::serving {

int RequestRouter::pick_prefill(std::span<const std::unique_ptr<PrefillInstance>> instances) {
  if (policy_ == RouterPolicy::round_robin) {
    return static_cast<int>(next_prefill_++ % instances.size());
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < instances.size(); ++i) {
    if (instances[i]->outstanding_tokens() < instances[best]->outstanding_tokens()) best = i;
  }
  return static_cast<int>(best);
}

int RequestRouter::pick_decode(std::span<const std::unique_ptr<DecodeInstance>> instances,
                               const RequestState& request) {
  if (policy_ == RouterPolicy::round_robin) {
    return static_cast<int>(next_decode_++ % instances.size());
  }
  std::size_t best = 0;
  double best_score = 0.0;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const DecodeInstance& d = *instances[i];
    double score = d.routed_requests();
    if (policy_ == RouterPolicy::memory_aware) {
      const auto committed = d.reserved_bytes() + d.expected_bytes() + d.reservation(request);
      score = static_cast<double>(committed) / static_cast<double>(d.pool_bytes());
    }
    if (i == 0 || score < best_score) {
      best = i;
      best_score = score;
    }
  }
  return static_cast<int>(best);
}

}  // namespace lynxsim::serving
