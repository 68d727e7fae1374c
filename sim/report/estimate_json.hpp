#pragma once
// `lynxsim estimate --json`: an Estimate (sim/compute/estimate.hpp) as a pretty-printed JSON object
// with "schema_version": 1, the request, every figure of the estimate in SI units, the KV by layer
// kind and the per-layer breakdowns of prefill and decode.

#include <string>

#include "sim/compute/estimate.hpp"

namespace lynxsim::report {

std::string estimate_json(const Estimate& estimate);

}  // namespace lynxsim::report
