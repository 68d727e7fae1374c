#pragma once
// JSON form of an AccuracyResult (schema_version 1): what `lynxsim accuracy --json` prints and what
// the result cache stores. Field names equal the struct members (accuracy_result.hpp); the needle
// curve is a list of {context, trials, found, accuracy}. Numbers are written with full precision so
// that a result read back from the cache is identical to the measured one.

#include <nlohmann/json_fwd.hpp>

#include "sim/accuracy/accuracy_result.hpp"

namespace lynxsim::store {

nlohmann::json result_to_json(const accuracy::AccuracyResult& result);
// Throws std::invalid_argument on a missing or mistyped field.
accuracy::AccuracyResult result_from_json(const nlohmann::json& document);

}  // namespace lynxsim::store
