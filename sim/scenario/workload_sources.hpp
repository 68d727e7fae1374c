#pragma once
// Trace-replay and synthetic workloads of a scenario (forms documented in workload_sources.cpp
// and docs/scenario.md). Both read the object of their key, record issues, and fill `resolved`.

#include <cstdint>
#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/scenario/json_fields.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::scenario {

std::vector<serving::RequestSpec> read_trace_workload(ObjectReader& r,
                                                      const std::filesystem::path& base_dir,
                                                      nlohmann::json& resolved);
std::vector<serving::RequestSpec> read_synthetic_workload(ObjectReader& r, std::uint64_t seed,
                                                          const std::filesystem::path& base_dir,
                                                          nlohmann::json& resolved);

}  // namespace lynxsim::scenario
