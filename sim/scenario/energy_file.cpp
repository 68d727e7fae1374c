#include "sim/scenario/energy_file.hpp"

#include <fmt/format.h>

#include "sim/scenario/json_file.hpp"
#include "sim/scenario/json_fields.hpp"

namespace lynxsim::scenario {
namespace {

using nlohmann::json;
constexpr double kPicojoule = 1e-12;

void read_gpu(ObjectReader& r, std::size_t i, plan::EnergyTable& table) {
  const FieldSection& G = field_section("energy-gpu");
  const std::string gpu = r.string(G["gpu"]).value_or("");
  plan::GpuPower p;
  p.idle_w = r.number(G["idle_w"]).value_or(0.0);
  p.peak_w = r.number(G["peak_w"]).value_or(0.0);
  p.source = r.string(G["source"]).value_or("");
  if (p.peak_w < p.idle_w) r.issues().add(fmt::format("/gpus/{}/peak_w", i), "must be at least idle_w");
  if (!table.gpus.emplace(gpu, p).second) {
    r.issues().add(fmt::format("/gpus/{}/gpu", i), fmt::format("GPU \"{}\" is listed twice", gpu));
  }
}

plan::EnergyTable parse_energy_table(const json& document, const std::string& file) {
  IssueList issues;
  ObjectReader top(document, "", issues);
  const FieldSection& F = field_section("energy");
  top.integer(F["schema_version"]);
  top.string(F["description"]);
  plan::EnergyTable table;
  table.nic_j_per_bit = top.number(F["nic_pj_per_bit"]).value_or(0.0) * kPicojoule;
  table.nic_source = top.string(F["nic_source"]).value_or("");
  table.switch_j_per_bit = top.number(F["switch_pj_per_bit"]).value_or(0.0) * kPicojoule;
  table.switch_source = top.string(F["switch_source"]).value_or("");
  read_object_rows(top, F["gpus"].key, [&](ObjectReader& r, std::size_t i) { read_gpu(r, i, table); });
  top.finish();
  issues.throw_if_any(file);
  return table;
}

}  // namespace

plan::EnergyTable load_energy_table(const std::filesystem::path& file) {
  return parse_energy_table(read_json_file(file), file.string());
}

}  // namespace lynxsim::scenario
