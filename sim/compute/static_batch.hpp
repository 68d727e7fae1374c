#pragma once
// Time of a static batch run to completion, as an offline engine runs it (vLLM's LLM.generate with
// one list of prompts, TensorRT-LLM's and LMDeploy's static-batch benchmarks).
//
// B sequences of P prompt tokens each generate O output tokens. The engine admits every prompt
// first and prefills them (the first output token comes out of the prefill), then runs O - 1 decode
// steps of all B sequences:
//
//   T = pass({P new, 0 cached} x B, B logit rows)
//     + sum_{j=1}^{O-1} decode_step(B sequences of P + j - 1 cached tokens each)
//
// with every step's engine cost (step_overhead + per-sequence cost) when the model has an engine.
// Assumptions: the KV cache holds all B (P + O) tokens (nothing is preempted or swapped), every
// sequence runs to O tokens (end-of-sequence ignored), and one prefill pass holds the whole batch;
// an engine that splits the prompts over several passes of a token budget adds only those passes'
// fixed costs, since a prefill of thousands of tokens is compute-bound at any split. Units: Time out.

#include "sim/compute/timing_model.hpp"
#include "sim/core/time.hpp"

namespace lynxsim {

struct StaticBatch {
  int sequences = 1;
  int prompt_tokens = 1;
  int output_tokens = 1;
};

Time static_batch_time(const TimingModel& timing, const StaticBatch& batch);

}  // namespace lynxsim
