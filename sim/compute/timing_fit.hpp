#pragma once
// Fitting the timing model's hardware constants to the calibration set.
//
// Each group of calibration points depends on its own few constants of the GPU profile:
//   layer_linear_*    memory_efficiency, compute_efficiency, gemm_half_tokens,
//                     elementwise_efficiency, kernel_floor
//   attention_decode  kv_read_efficiency, attention_floor, attention_block_time
//   allreduce         scale_up_efficiency, scale_up_latency, scale_up_step_latency and, where the
//                     start profile has one, scale_up_ll_latency
// For one GPU, the constants of every group present are fitted on the points NOT marked hold-out
// by minimising the sum of |ln(predicted / measured)| (the log keeps a 30 us point and a 30 ms
// point on one scale; the absolute value makes the fit robust to a stray measurement). The minimiser is
// coordinate descent over fixed grids: each constant in turn takes the grid value of least cost
// (the smallest on ties) until a full sweep changes nothing, so the result is deterministic.

#include <functional>
#include <string>
#include <vector>

#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"
#include "sim/compute/timing_calibration.hpp"

namespace lynxsim {

struct FittedConstant {
  std::string name;
  double value = 0.0;  // fractions as they are, gemm_half_tokens in tokens, times in microseconds
};

struct HardwareFit {
  HardwareSpec hardware;  // the start profile with the fitted constants set
  std::vector<FittedConstant> constants;
  int points = 0;  // calibration points used
};

using ModelLookup = std::function<const ModelSpec&(const std::string& model)>;

// Fits the constants of `start` on the calibration points of start.name among `points`.
HardwareFit fit_hardware(const std::vector<CalibrationPoint>& points, const ModelLookup& model_of,
                         const HardwareSpec& start);

}  // namespace lynxsim
