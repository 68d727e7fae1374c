#pragma once
// The key tables of a scenario and of the cards and flow lists it reads: the Field machinery of
// sim/fields (field_table.hpp) and the lookup of this layer's tables by id.

#include <span>
#include <string_view>

#include "sim/fields/field_table.hpp"

namespace lynxsim::scenario {

using fields::choice_names;
using fields::Field;
using fields::FieldSection;
using fields::FieldType;
using fields::kPositiveDuration;
using fields::kUnbounded;
using fields::render_key_table;

// Every key table of a scenario, then those of a flow-list file, in the order docs/scenario.md shows them.
std::span<const FieldSection> scenario_field_sections();
// The table with this id; throws std::logic_error for an unknown id.
const FieldSection& field_section(std::string_view id);

}  // namespace lynxsim::scenario
