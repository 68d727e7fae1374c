#pragma once
// Timing model against public measurements.
//
// A calibration point is one published measurement (data/calibration/timing/*.csv, one row each,
// with its source; sim/scenario/calibration_csv.hpp reads them). Groups and what the model
// predicts for them, per rank, in milliseconds:
//
//   layer_linear_decode, layer_linear_prefill, layer_linear_tp
//       one transformer layer without attention kernels: linear_op + elementwise_op of a pass of
//       `tokens` new tokens at tensor parallelism `tp` (operator kernel times, no launch gaps);
//   attention_decode
//       one decode attention kernel over paged KV: `tokens` sequences of one new token after
//       `context` cached tokens each at tensor parallelism `tp` (TimingModel::decode_attention,
//       block tables 4096 tokens wide as in vidur's profiling);
//   allreduce
//       one ring all-reduce of `tokens` bytes over `tp` GPUs on the scale-up link;
//   allreduce_engine
//       the same prediction against NCCL as a serving engine runs it (under CUDA graphs), from a
//       second source: hold-out rows only, never fitted;
//   allreduce_small
//       an all-reduce by a serving engine's own kernels (TimingModel::tp_allreduce with the
//       engine given to predict_calibration_ms: the ring's bandwidth term plus the engine's
//       small_allreduce_latency), against the best of the engine's backends;
//   prefill_tp
//       a whole prefill of `tokens` prompt tokens at tensor parallelism `tp` (TimingModel::prefill,
//       every layer with its two all-reduces and the LM head), against a served model's
//       time to first token at concurrency 1, which also holds the engine's and client's
//       per-request costs (a few milliseconds): hold-out rows only;
//   decode_step
//       one whole decode step of `tokens` sequences of `context` cached tokens each at tensor
//       parallelism `tp` (TimingModel::decode_step with the engine that ran them, its host launch
//       time hidden under each layer's GPU time), against a C++ engine's per-token latency at a
//       static batch;
//   decode_run
//       a whole static batch run to completion (static_batch.hpp): `tokens` sequences of `context`
//       prompt tokens each generating `context` tokens, with the engine that ran them, against the
//       end-to-end latency of an offline engine's generate call;
//   decode_run_tp
//       the same at tensor parallelism `tp` > 1 (each step's two all-reduces per layer included);
//   pd_ttft
//       a prefill/decode deployment's time to first token at concurrency 1, run through the
//       serving simulation (sim/app/deployment_ttft.hpp); predict_calibration_ms refuses it.
//
// The error of a point is |predicted - measured| / measured. Points marked holdout were kept out of
// every fitted constant; summaries report the calibration set and the hold-out separately with the
// median and the worst error of each group.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/compute/engine_spec.hpp"
#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"

namespace lynxsim {

struct CalibrationPoint {
  std::string group;
  std::string model;
  std::string gpu;
  int tp = 1;
  long long tokens = 0;
  long long context = 0;
  double measured_ms = 0.0;
  bool holdout = false;
  std::string source;
};

struct CalibrationSummary {
  std::string group;
  bool holdout = false;
  int points = 0;
  double median_error = 0.0;
  double worst_error = 0.0;
};

// The groups above, in this order (the calibration files are read by sim/scenario/calibration_csv).
std::span<const std::string_view> calibration_groups();

// The configs/engines/ profile that ran a group's measurements: vLLM's all-reduce kernels for
// allreduce_small and vLLM's step costs for decode_run and decode_run_tp, LMDeploy's TurboMind for
// decode_step; "vllm" for groups that use none.
std::string_view calibration_engine(std::string_view group);

// Whether predict_calibration_ms uses the engine it is given for a group's rows.
bool calibration_uses_engine(std::string_view group);

// `engine` is used by the allreduce_small group (nullptr: no engine, NCCL's ring) and by the
// decode_step, decode_run and decode_run_tp groups (the engine that ran the steps; nullptr: the GPU
// profile's overheads); the profile a group's rows were measured with is calibration_engine(group).
double predict_calibration_ms(const CalibrationPoint& point, const ModelSpec& model,
                              const HardwareSpec& hw, const EngineSpec* engine = nullptr);

double relative_error(double predicted, double measured);

// One summary per (group, holdout) present, in order of first appearance.
std::vector<CalibrationSummary> summarize_calibration(const std::vector<CalibrationPoint>& points,
                                                      const std::vector<double>& predicted_ms);

}  // namespace lynxsim
