#pragma once
// The router: assigns each arriving request to one prefill and one decode instance.
//
//   round_robin   instance (k mod N) for the k-th request, independently per role
//   least_loaded  prefill: fewest tokens still to prefill (queued + running);
//                 decode: fewest routed, unfinished requests
//   memory_aware  prefill as least_loaded; decode: the lowest committed memory fraction
//                 (weights + reserved KV + KV of requests routed there and not yet admitted)
//                 / usable HBM, counting the new request's reservation (with data-parallel
//                 attention: summed over the ranks, over the ranks' usable HBM)
// Ties go to the lowest instance index, so routing is deterministic.

#include <memory>
#include <span>

#include "sim/serving/decode_instance.hpp"
#include "sim/serving/prefill_instance.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::serving {

class RequestRouter {
public:
  explicit RequestRouter(RouterPolicy policy) : policy_(policy) {}

  int pick_prefill(std::span<const std::unique_ptr<PrefillInstance>> instances);
  int pick_decode(std::span<const std::unique_ptr<DecodeInstance>> instances,
                  const RequestState& request);

private:
  RouterPolicy policy_;
  std::size_t next_prefill_ = 0;
  std::size_t next_decode_ = 0;
};

}  // namespace lynxsim::serving
