#pragma once
// The strict, error-collecting reader of sim/fields (object_reader.hpp) under the configuration
// layer's names, with the field-table lookup of this layer (field_table.hpp).

#include "sim/fields/object_reader.hpp"
#include "sim/scenario/field_table.hpp"
#include "sim/scenario/scenario_error.hpp"

namespace lynxsim::scenario {

using fields::bytes_text;
using fields::check_name;
using fields::default_choice;
using fields::describe_value;
using fields::field_table_mismatch;
using fields::ObjectReader;
using fields::pointer_child;
using fields::read_choice;
using fields::time_text;

}  // namespace lynxsim::scenario
