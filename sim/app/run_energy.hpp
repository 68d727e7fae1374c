#pragma once
// The energy of a scenario's runs (plan/energy.hpp) from the energy table of --data-dir
// (data/energy.json): attached to each MethodResult when every GPU of the scenario has a power row
// (summary.json then holds cluster "energy", else null; `--wide` tables show J/token and J/request).

#include <optional>
#include <vector>

#include "sim/app/data_paths.hpp"
#include "sim/plan/energy.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serving/request_metrics.hpp"

namespace lynxsim::app {

plan::EnergyTable bundled_energy_table(const DataPaths& data);

// The run's energy, or nullopt when a GPU of the scenario has no power row.
std::optional<serving::EnergyTotals> scenario_energy(const plan::EnergyTable& table, const scenario::Scenario& s,
                                                     const serving::MethodResult& result);

void attach_energy(const DataPaths& data, const scenario::Scenario& s, std::vector<serving::MethodResult>& results);

}  // namespace lynxsim::app
