#pragma once
// The numbers behind `lynxsim estimate`: prefill time of one `context`-token prompt, one decode
// step of `batch` sequences that each hold `context` tokens of KV, KV bytes per token, the per-layer
// breakdown (linear vs attention), and whether weights plus KV fit in HBM. All from TimingModel,
// so anyone can check a measurement against each term. Prefill and decode each take their instance
// layout (data-parallel attention, expert parallelism); KV and HBM are the decode side's. With a
// serving engine (engine_spec.hpp) both take its per-step costs and CUDA-graph settings in place of
// the GPU profile's layer_overhead and step_overhead, as a scenario's instances do. With
// output_tokens, the time of a static batch run of `batch` prompts of `context` tokens that each
// generate output_tokens (static_batch.hpp), in the decode instance's layout.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/compute/engine_spec.hpp"
#include "sim/compute/expert_parallel.hpp"
#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"
#include "sim/compute/timing_model.hpp"

namespace lynxsim {

// attention_dp and expert_parallel 0: default_layout's for the model (expert_parallel.hpp), as a
// scenario's instance groups default.
struct EstimateRequest {
  int context = 0;
  int batch = 1;
  int tensor_parallel = 1;
  int prefill_attention_dp = 0;
  int decode_attention_dp = 0;
  int expert_parallel = 0;
  double load_imbalance = kEplbLoadImbalance;
  int output_tokens = 0;  // > 0: also time a static batch run to completion (static_batch.hpp)
};

struct LayerEstimate {
  double linear_flops = 0.0;
  double linear_time_s = 0.0;
  Bound linear_bound = Bound::memory;
  double attention_flops = 0.0;
  double attention_time_s = 0.0;
  Bound attention_bound = Bound::memory;
  double elementwise_time_s = 0.0;
  double allreduce_time_s = 0.0;
  double overhead_time_s = 0.0;
  double total_time_s = 0.0;
};

// KV of one layer kind (model_layers.hpp): per token and layer for F and S layers (an S layer
// holds at most `window` tokens), a fixed state per sequence and layer for L layers.
struct LayerKindKv {
  std::string kind;  // "full", "sliding" or "linear"
  std::string attention;  // "gqa", "mla" or "linear"
  int layers = 0;
  std::int64_t bytes_per_token_per_layer = 0;
  int window = 0;
  std::int64_t state_bytes_per_layer = 0;
};

struct Estimate {
  std::string model;
  std::string hardware;
  std::string engine;  // "none" without one
  EstimateRequest request;
  ExpertParallelLayout prefill_layout;
  ExpertParallelLayout decode_layout;
  double prefill_time_s = 0.0;
  Bound prefill_bound = Bound::compute;
  double decode_step_time_s = 0.0;
  Bound decode_bound = Bound::memory;
  double decode_tokens_per_s = 0.0;
  double static_batch_time_s = 0.0;  // `batch` prompts of `context` tokens, output_tokens each
  std::int64_t kv_bytes_per_token = 0;           // unique BF16 KV of the model
  std::int64_t kv_bytes_per_token_per_rank = 0;  // what one TP rank holds
  int kv_replication = 1;
  std::int64_t weight_bytes_per_rank = 0;
  std::int64_t kv_bytes_per_rank = 0;            // batch * context tokens of KV on one rank
  std::int64_t kv_bytes_per_sequence = 0;        // one sequence of `context` tokens, all layers
  std::vector<LayerKindKv> kv_by_kind;
  // The projections' format and GEMM precision by part (weight_format.hpp); experts only for MoE.
  std::vector<PartPrecision> weights;
  std::int64_t hbm_capacity = 0;
  bool fits_in_hbm = false;
  LayerEstimate prefill_layer;
  LayerEstimate decode_layer;
};

// Throws std::invalid_argument for context < 1, batch < 1, tensor_parallel < 1, output_tokens < 0
// or a layout check_layout rejects.
Estimate build_estimate(const ModelSpec& model, const HardwareSpec& hw, const EstimateRequest& req,
                        const std::optional<EngineSpec>& engine = std::nullopt);

// Human-readable, for the terminal (the JSON form: sim/report/estimate_json.hpp).
std::string estimate_table(const Estimate& estimate);

}  // namespace lynxsim
