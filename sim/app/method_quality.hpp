#pragma once
// Measured precision of each method of a scenario, as the serving model consumes it.
//
// Each transfer method is mapped to its sim/accuracy counterpart and measured on KV of the
// scenario's model (synthetic, or the scenario's kv_file) at a representative context: the longest
// request context, capped at 32768 tokens (precision depends weakly on length beyond that, and the
// measurement cost grows with it). Speculative methods get a per-token acceptance that feeds
// speculative decoding unless the scenario overrides it: the proxy measured here, calibrated by
// the committed real-model measurements (run_acceptance.hpp: the real acceptance itself for a real
// model, the lowest of the proxy's miss rate scaled by each real model's fitted ratio for other
// models); acceptance_source says which, the metrics acceptance_low and acceptance_high give the
// range and proxy_acceptance the uncalibrated proxy. cachegen also gets its measured size.
// With accuracy disabled, every method gets acceptance 1 and no metrics.

#include <string>
#include <vector>

#include "sim/accuracy/accuracy_run.hpp"
#include "sim/app/data_paths.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::app {

std::vector<serving::MethodQuality> measure_method_qualities(const DataPaths& data,
                                                             const scenario::Scenario& scenario);

// What the precision measurement of the scenario's methods asks sim/accuracy (model geometry,
// representative context, methods, kv_file, seed); throws std::invalid_argument for a method the
// measurement does not know.
accuracy::AccuracyRequest precision_request(const scenario::Scenario& scenario);

}  // namespace lynxsim::app
