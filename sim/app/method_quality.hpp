#pragma once
// Measured precision of each method of a scenario, as the serving model consumes it.
//
// Each transfer method is mapped to its sim/accuracy counterpart and measured on KV of the
// scenario's model (synthetic, or the scenario's kv_file) at a representative context: the longest
// request context, capped at 32768 tokens (precision depends weakly on length beyond that, and the
// measurement cost grows with it). The measured per-token acceptance of speculative methods feeds
// speculative decoding unless the scenario overrides it; cachegen also gets its measured size.
// With accuracy disabled, every method gets acceptance 1 and no metrics.

#include <vector>

#include "sim/scenario/scenario.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::app {

std::vector<serving::MethodQuality> measure_method_qualities(const scenario::Scenario& scenario);

}  // namespace lynxsim::app
