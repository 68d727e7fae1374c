#pragma once
// Reading a model card, a hardware profile or a serving-engine profile from its parsed JSON object
// at a JSON pointer (`path`: "" for a card file, "/model" for a scenario's inline card) into the
// typed struct sim/compute takes. Every key is read through its Field (card_fields.hpp); every
// problem is recorded in `issues` at its pointer and reading goes on, so all problems of a card are
// reported together. The returned struct is neutral where a value was wrong.
//
// Beyond each key's own bounds: weight_bits is 8 or 16; attention's MLA keys are read (and
// required) only for kind "mla"; layer_pattern has only the letters F, S and L, sliding_window is
// given exactly when it has S and linear exactly when it has L; moe's top_k is at most its experts
// and first_dense_layers below num_layers.

#include <string>

#include <nlohmann/json.hpp>

#include "sim/compute/engine_spec.hpp"
#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"
#include "sim/scenario/scenario_error.hpp"

namespace lynxsim::scenario {

ModelSpec read_model_card(const nlohmann::json& card, const std::string& path, IssueList& issues);
HardwareSpec read_hardware_profile(const nlohmann::json& card, const std::string& path,
                                   IssueList& issues);
EngineSpec read_engine_profile(const nlohmann::json& card, const std::string& path,
                               IssueList& issues);

}  // namespace lynxsim::scenario
