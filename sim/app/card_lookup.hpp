#pragma once
// Model cards, hardware profiles and serving-engine profiles by name, with an error that lists the
// known names.

#include <string>

#include "sim/app/data_paths.hpp"
#include "sim/compute/engine_spec.hpp"
#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"

namespace lynxsim::app {

ModelSpec find_model(const DataPaths& data, const std::string& name);
HardwareSpec find_gpu(const DataPaths& data, const std::string& name);
EngineSpec find_engine(const DataPaths& data, const std::string& name);

}  // namespace lynxsim::app
