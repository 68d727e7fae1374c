#pragma once
// Expert parallelism: the all-to-all dispatch and combine of a MoE layer whose experts are spread
// over R ranks while attention runs data-parallel (each rank holds its own N tokens), as DeepEP and
// the DeepSeek-V3 deployment do (arXiv:2412.19437 section 3.2).
//
// Each token goes to its top-k experts, spread evenly over the R ranks, so a rank sends
//   bytes_out = N * k * (R - 1) / R * hidden * 2       (BF16 rows; the local share stays)
// in dispatch and receives as many back in combine. Over the scale-up fabric every rank sends and
// receives through its own link at the bus rate, so one all-to-all takes
//   a2a = imbalance * bytes_out / (scale_up_bandwidth * scale_up_efficiency) + scale_up_latency
//         + (R - 1) * scale_up_step_latency
// and a MoE layer pays dispatch + combine = 2 * a2a. imbalance >= 1 is the busiest rank's routed
// load over the mean (1: perfectly balanced routing). For R = 2 this is one link carrying
// N k / 2 rows each way. Where EP spans hosts the exchange runs on the flow model instead (not
// modelled here). Units: bytes, seconds inside, Time out.

#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"
#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace lynxsim {

// One all-to-all in which each of `ranks` ranks sends bytes_out_per_rank; zero for one rank.
// Throws std::invalid_argument for imbalance < 1.
Time all_to_all_time(const HardwareSpec& hw, int ranks, Bytes bytes_out_per_rank, double imbalance);

// Dispatch plus combine of one MoE layer for `tokens_per_rank` tokens on each of `ranks` ranks;
// zero for a dense model or one rank.
Time expert_parallel_layer_time(const HardwareSpec& hw, const ModelSpec& model, int ranks,
                                int tokens_per_rank, double imbalance);

}  // namespace lynxsim
