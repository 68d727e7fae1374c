#include "sim/plan/memory_fit.hpp"

#include "sim/compute/timing_model.hpp"

namespace lynxsim::plan {

FitResult memory_fit(const FitQuery& query) {
  TimingModel timing(*query.model, *query.gpu, query.tensor_parallel);
  timing.set_parallel_layout(query.layout);
  FitResult r;
  r.usable_bytes = static_cast<double>(query.gpu->hbm_capacity.value) * query.usable_fraction;
  r.weights_bytes = static_cast<double>(timing.weight_bytes_per_rank().value);
  r.kv_bytes = static_cast<double>(timing.kv_bytes_per_rank(query.tokens).value);
  r.fits = r.weights_bytes < r.usable_bytes && r.weights_bytes + r.kv_bytes <= r.usable_bytes;
  return r;
}

}  // namespace lynxsim::plan
