#pragma once
// The per-token acceptance alpha a scenario run gives a speculative method, and its range.
//
// Each real model lynxsim runs has a committed calibration (data/calibration/<model>-acceptance.json,
// written by `lynxsim calibrate-acceptance --model M`): per method and context, the real alpha and
// the proxy p measured on that model's geometry. For a method listed there:
//   model is a calibrated real model   alpha = its measured alpha at the nearest context; the range
//                                      is alpha +- 2 binomial standard errors, clipped to [0, 1];
//   any other model                    alpha_i = 1 − clamp(c_i · (1 − p_model), 0, 1) for each real
//                                      model i (c_i its miss ratio at the nearest context,
//                                      real_acceptance_calibration.hpp); the run uses the lowest
//                                      alpha_i and the range is [min_i, max_i].
// Taking the lowest is the conservative reading: the two real models disagree (Gemma 3's keys have
// ten times SmolLM2's outlier channels, and its 4-bit anchor is accepted less often), and a large
// model's keys look more like Gemma's (KIVI, KVQuant); the spread between them is the stated
// uncertainty of the transfer to other models, printed beside alpha. A method no file lists keeps
// the uncalibrated proxy (range [p, p]).

#include <string>
#include <vector>

#include "sim/accuracy/calibration/acceptance_calibration_file.hpp"
#include "sim/scenario/data_paths.hpp"

namespace lynxsim::app {

struct RunAcceptance {
  double value = 1.0;
  double low = 1.0;
  double high = 1.0;
  std::string source;
};

// Every committed calibration file that exists, in DataPaths::acceptance_calibrations() order.
std::vector<accuracy::CalibrationFile> load_calibrations(const scenario::DataPaths& data);

RunAcceptance choose_acceptance(double proxy, const std::string& method, const std::string& model, int context,
                                const std::vector<accuracy::CalibrationFile>& calibrations);

// The same, loading the committed files.
RunAcceptance run_acceptance(const scenario::DataPaths& data, const std::string& model, int context,
                             const std::string& method, double proxy);

}  // namespace lynxsim::app
