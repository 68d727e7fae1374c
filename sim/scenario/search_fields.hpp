#pragma once
// The key tables of a search file (`lynxsim search FILE`, search_file.hpp) and of the price table
// it reads (data/prices.json, price_file.hpp). scenario_field_sections() lists them with the
// scenario's tables, so `lynxsim keys` prints them and docs/search.md shows them.

#include <span>

#include "sim/scenario/field_table.hpp"

namespace lynxsim::scenario {

std::span<const FieldSection> search_field_sections();

}  // namespace lynxsim::scenario
