#pragma once
// The key tables of a network object (network_fields.cpp), for scenario_field_sections() to list
// and the network readers (topology_json.cpp, network_json.cpp) to read by.

#include <span>

#include "sim/scenario/field_table.hpp"
#include "sim/scenario/input_limits.hpp"

namespace lynxsim::scenario {

std::span<const FieldSection> network_field_sections();

}  // namespace lynxsim::scenario
