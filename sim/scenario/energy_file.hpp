#pragma once
// An energy table file (data/energy.json; keys: search_fields.cpp, docs/search.md): idle and peak
// watts per GPU name, NIC and switch energy per bit, each with its source (plan/energy.hpp uses
// them). Every problem is thrown as one ScenarioError of the file (exit 2) with its JSON pointer.

#include <filesystem>

#include "sim/plan/energy.hpp"

namespace lynxsim::scenario {

plan::EnergyTable load_energy_table(const std::filesystem::path& file);

}  // namespace lynxsim::scenario
