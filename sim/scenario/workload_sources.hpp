#pragma once
// Trace-replay, synthetic and closed-loop workloads of a scenario (forms documented in
// workload_sources.cpp, workload_closed_loop.cpp and docs/scenario.md). Each reads the object of its
// key, records issues, and fills `resolved`.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/scenario/json_fields.hpp"
#include "sim/serving/length_distribution.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::scenario {

// A length: an integer (fixed) or an object of the "length" table.
serving::LengthDistribution read_length(const nlohmann::json& value, const std::string& path,
                                        IssueList& issues, const std::filesystem::path& base_dir,
                                        nlohmann::json& resolved);
std::vector<serving::RequestSpec> read_trace_workload(ObjectReader& r,
                                                      const std::filesystem::path& base_dir,
                                                      nlohmann::json& resolved);
std::vector<serving::RequestSpec> read_synthetic_workload(ObjectReader& r, std::uint64_t seed,
                                                          const std::filesystem::path& base_dir,
                                                          nlohmann::json& resolved);
// The closed-loop client's requests (ready times in arrival_at) and the client itself.
std::vector<serving::RequestSpec> read_closed_loop_workload(ObjectReader& r, std::uint64_t seed,
                                                            const std::filesystem::path& base_dir,
                                                            nlohmann::json& resolved,
                                                            std::optional<serving::ClientSpec>& client);

}  // namespace lynxsim::scenario
