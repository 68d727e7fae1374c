#pragma once
// The key tables of a flow-list file (flow_list_file.hpp; `lynxsim flows FILE`): the document
// {"flows": [...]} and one flow. scenario_field_sections() lists them with the scenario's tables,
// so `lynxsim keys` prints them and docs/scenario.md shows them.

#include <span>

#include "sim/scenario/field_table.hpp"

namespace lynxsim::scenario {

std::span<const FieldSection> flow_list_field_sections();

}  // namespace lynxsim::scenario
