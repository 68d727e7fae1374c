#pragma once
// Helpers of the network readers (topology_json.cpp, network_json.cpp), which read every object by
// its key table (network_fields.cpp) through ObjectReader's Field accessors.
//
// The resolved form of a network object is the table's resolution (every key, defaults included)
// with the values the user wrote kept as written (keep_written): a rate like "9.3Gbps" is parsed
// once and never reprinted, so the resolved scenario loads again to the same bits.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/scenario/json_fields.hpp"

namespace lynxsim::scenario {

// Copies every scalar member of `written` into `resolved` (objects and arrays are resolved by their
// own readers).
void keep_written(const nlohmann::json& written, nlohmann::json& resolved);

// An array of names (check_name), recorded in resolved[f.key]; nullopt when absent or wrong.
std::optional<std::vector<std::string>> read_names(ObjectReader& r, const Field& f, nlohmann::json& resolved);
// read_names for a list of hosts, which may not be empty (a graph without hosts, a placement pool
// that places nothing).
std::optional<std::vector<std::string>> read_host_names(ObjectReader& r, const Field& f,
                                                        nlohmann::json& resolved);

}  // namespace lynxsim::scenario
