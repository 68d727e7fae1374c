#include "sim/app/run_energy.hpp"

#include "sim/scenario/energy_file.hpp"

namespace lynxsim::app {
namespace {

bool has_power(const plan::EnergyTable& table, const serving::InstanceSpec& first,
               const std::vector<serving::InstanceSpec>& extra) {
  for (const serving::InstanceSpec& i : serving::expand_instances(first, extra)) {
    if (!table.gpus.contains(i.gpu.name)) return false;
  }
  return true;
}

}  // namespace

plan::EnergyTable bundled_energy_table(const DataPaths& data) {
  return scenario::load_energy_table(data.root / "data" / "energy.json");
}

std::optional<serving::EnergyTotals> scenario_energy(const plan::EnergyTable& table, const scenario::Scenario& s,
                                                     const serving::MethodResult& result) {
  const serving::ServingConfig& c = s.serving;
  if (!has_power(table, c.prefill, c.extra_prefill) || !has_power(table, c.decode, c.extra_decode)) return std::nullopt;
  return plan::run_energy(c, result, table, plan::switch_hops(s.network.topology));
}

void attach_energy(const DataPaths& data, const scenario::Scenario& s, std::vector<serving::MethodResult>& results) {
  const plan::EnergyTable table = bundled_energy_table(data);
  for (serving::MethodResult& r : results) r.cluster.energy = scenario_energy(table, s, r);
}

}  // namespace lynxsim::app
