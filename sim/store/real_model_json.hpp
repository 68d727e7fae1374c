#pragma once
// JSON form of a RealModelResult (schema_version 1): what the CLI prints with --json and what the
// real-model cache stores. Field names equal the struct members (real_model_result.hpp); derived
// numbers (agreement, per-token acceptance, the accepted-prefix histogram for every k, passkey
// accuracy) are written too for readers, and ignored when reading back.

#include <nlohmann/json_fwd.hpp>

#include "sim/accuracy/real_model/real_model_result.hpp"

namespace lynxsim::store {

nlohmann::json real_result_to_json(const accuracy::RealModelResult& result);
// Throws std::invalid_argument on a missing or mistyped field.
accuracy::RealModelResult real_result_from_json(const nlohmann::json& document);

}  // namespace lynxsim::store
