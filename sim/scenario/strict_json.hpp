#pragma once
// The strict JSON parser of sim/fields (strict_json.hpp), under the configuration layer's names.

#include "sim/fields/strict_json.hpp"

namespace lynxsim::scenario {

using fields::kMaxJsonDepth;
using fields::parse_json_document;
using fields::parse_strict_json;
using fields::StrictJsonError;

}  // namespace lynxsim::scenario
