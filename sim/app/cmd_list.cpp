#include <fmt/format.h>

#include "sim/app/commands.hpp"
#include "sim/core/printable.hpp"
#include "sim/scenario/card_files.hpp"
#include "sim/quant/method_spec.hpp"

namespace lynxsim::app {

int cmd_list(const DataPaths& data) {
  fmt::print("Models ({}):\n", terminal_text(data.models().string()));
  for (const ModelSpec& m : scenario::list_model_cards(data.models())) fmt::print("  {}\n", terminal_text(describe(m)));
  fmt::print("\nHardware ({}):\n", terminal_text(data.gpus().string()));
  for (const HardwareSpec& h : scenario::list_hardware(data.gpus())) fmt::print("  {}\n", terminal_text(describe(h)));
  fmt::print("\nServing engines ({}):\n", terminal_text(data.engines().string()));
  for (const EngineSpec& e : scenario::list_engines(data.engines())) {
    fmt::print("  {:<20} {}\n", e.name, terminal_text(e.description));
  }
  fmt::print("\nTransfer methods:\n");
  for (const std::string& name : quant::method_preset_names()) {
    const quant::MethodSpec m = quant::method_from_name(name);
    fmt::print("  {:<14} {}\n", name, m.description);
  }
  return 0;
}

}  // namespace lynxsim::app
