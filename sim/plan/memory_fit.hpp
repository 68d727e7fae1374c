#pragma once
// Whether a role's instance can hold the model and the KV of the largest request, decided before
// any simulation so that a search never simulates a configuration that cannot run.
//
// For one instance of `tp` GPUs of `gpu` serving `model` in `layout` (compute/expert_parallel.hpp):
//   weights = TimingModel::weight_bytes_per_rank()
//   kv      = TimingModel::kv_bytes_per_rank(tokens)
//   fits   <=>  weights < usable  and  weights + kv <= usable,   usable = hbm_capacity * fraction
// Decode: tokens = context + output (+ max_draft_tokens when the method speculates) of the largest
// request and fraction = serving.decode_hbm_fraction: the rule of serving/capacity_check.hpp, which
// the scenario loader applies to every run, so nothing pruned here could have been run.
// Prefill: tokens = the longest prompt and fraction = 1: the whole HBM, the loosest physical bound
// (the serving model does not bound prefill memory), so no prefill that an engine could run is
// pruned.

#include <cstdint>

#include "sim/compute/expert_parallel.hpp"
#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"

namespace lynxsim::plan {

struct FitQuery {
  const ModelSpec* model = nullptr;
  const HardwareSpec* gpu = nullptr;
  int tensor_parallel = 1;
  ExpertParallelLayout layout{};
  std::int64_t tokens = 0;
  double usable_fraction = 1.0;
};

struct FitResult {
  double weights_bytes = 0.0;
  double kv_bytes = 0.0;
  double usable_bytes = 0.0;
  bool fits = false;
};

FitResult memory_fit(const FitQuery& query);

}  // namespace lynxsim::plan
