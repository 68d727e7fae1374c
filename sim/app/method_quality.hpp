#pragma once
// Measured precision of each method of a scenario, as the serving model consumes it.
//
// Each transfer method is mapped to its sim/accuracy counterpart and measured on KV of the
// scenario's model (synthetic, or the scenario's kv_file) at a representative context: the longest
// request context, capped at 32768 tokens (precision depends weakly on length beyond that, and the
// measurement cost grows with it). Speculative methods get a per-token acceptance that feeds
// speculative decoding unless the scenario overrides it: the proxy measured here, calibrated by
// the committed SmolLM2 measurement data/calibration/smollm2-acceptance.json when it lists the
// method (acceptance_calibration_file.hpp: the real acceptance itself for SmolLM2-135M, the
// proxy's miss rate scaled by the fitted ratio for other models); acceptance_source says which,
// and the metric proxy_acceptance keeps the uncalibrated proxy. cachegen also gets its measured size.
// With accuracy disabled, every method gets acceptance 1 and no metrics.

#include <string>
#include <vector>

#include "sim/app/data_paths.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::app {

std::vector<serving::MethodQuality> measure_method_qualities(const DataPaths& data,
                                                             const scenario::Scenario& scenario);

// The acceptance a scenario run gives `method` on `model` at `context` tokens from its measured
// proxy, and where it comes from (as above).
struct RunAcceptance {
  double value = 1.0;
  std::string source;
};
RunAcceptance run_acceptance(const DataPaths& data, const std::string& model, int context,
                             const std::string& method, double proxy);

}  // namespace lynxsim::app
