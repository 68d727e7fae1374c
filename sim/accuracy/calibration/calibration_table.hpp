#pragma once
// The committed acceptance calibration: what SmolLM2-135M measured, stored so that every scenario
// run can use it without running the real model.
//
// `lynxsim calibrate-acceptance` measures, per speculative method and context, SmolLM2's per-token
// acceptance alpha (real drafts verified by the full KV, real_model_eval.hpp) and the proxy p on
// SmolLM2's geometry (accuracy_run.hpp), and writes one entry per (method, context) with the fitted
// miss ratio c (real_acceptance_calibration.hpp). The serving model then takes, for a speculative
// method:
//   model SmolLM2-135M   alpha = the measured alpha at the calibrated context nearest the request's;
//   any other model      alpha = 1 − clamp(c · (1 − p_model), 0, 1), c from the nearest context;
//   method not listed    alpha = p_model (the uncalibrated proxy).
//
// Format (JSON, every key required, unknown keys rejected):
//   {"schema_version": 1, "model": "smollm2-135m", "seed": 1, "k_max": 16,
//    "acceptance_samples": 48, "acceptance_stride": 16,
//    "entries": [{"method": "lynx-4+4", "context": 1024, "proxy_acceptance": 0.77,
//                 "real_acceptance": 0.996, "real_trials": 760}, ...]}
// The miss ratio is not stored: it follows from the three numbers of an entry.
// The file is read and written by the store layer (sim/store/acceptance_calibration_file.hpp).

#include <cstdint>
#include <string>
#include <vector>

#include "sim/accuracy/calibration/real_acceptance_calibration.hpp"

namespace lynxsim::accuracy {

inline constexpr int kCalibrationSchemaVersion = 1;

struct CalibrationFile {
  std::string model = "smollm2-135m";
  std::uint64_t seed = 1;
  int k_max = 16;
  int acceptance_samples = 0;
  int acceptance_stride = 0;
  std::vector<AcceptanceCalibration> entries;

  // The entry of `method` whose context is nearest `context` (the smaller on a tie); nullptr when
  // the method has none.
  const AcceptanceCalibration* nearest(const std::string& method, int context) const;
};

}  // namespace lynxsim::accuracy
