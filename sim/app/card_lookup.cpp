#include "sim/app/card_lookup.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdexcept>

#include "sim/scenario/card_files.hpp"

namespace lynxsim::app {
namespace {

std::filesystem::path card_path(const std::filesystem::path& dir, const std::string& name,
                                std::string_view kind) {
  const auto path = dir / (name + ".json");
  if (!std::filesystem::exists(path)) {
    throw std::invalid_argument(fmt::format("unknown {} \"{}\" (known: {})", kind, name,
                                            fmt::join(scenario::card_names(dir), ", ")));
  }
  return path;
}

}  // namespace

ModelSpec find_model(const DataPaths& data, const std::string& name) {
  return scenario::load_model_card(card_path(data.models(), name, "model"));
}

HardwareSpec find_gpu(const DataPaths& data, const std::string& name) {
  return scenario::load_hardware_profile(card_path(data.gpus(), name, "GPU"));
}

EngineSpec find_engine(const DataPaths& data, const std::string& name) {
  return scenario::load_engine_profile(card_path(data.engines(), name, "serving engine"));
}

}  // namespace lynxsim::app
