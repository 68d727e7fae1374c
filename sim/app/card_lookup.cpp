#include "sim/app/card_lookup.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>
#include <vector>

#include "sim/compute/card_loader.hpp"

namespace lynxsim::app {
namespace {

std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::filesystem::path card_path(const std::filesystem::path& dir, const std::string& name,
                                std::string_view kind) {
  const auto path = dir / (name + ".json");
  if (!std::filesystem::exists(path)) {
    throw std::invalid_argument(fmt::format("unknown {} \"{}\" (known: {})", kind, name,
                                            fmt::join(names_in(dir), ", ")));
  }
  return path;
}

}  // namespace

ModelSpec find_model(const DataPaths& data, const std::string& name) {
  return load_model_card(card_path(data.models(), name, "model"));
}

HardwareSpec find_gpu(const DataPaths& data, const std::string& name) {
  return load_hardware_profile(card_path(data.gpus(), name, "GPU"));
}

}  // namespace lynxsim::app
