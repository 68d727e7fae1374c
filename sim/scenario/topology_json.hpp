#pragma once
// Strict JSON for network configurations (schema in configs/topologies/README.md; every key of
// every object is declared once in network_fields.cpp, which docs/scenario.md's key tables render).
//
// A link:      {"rate": "100Gbps", "latency": "2us", "efficiency": 0.8}   efficiency optional (1.0)
// A topology:  {"kind": K, ...} with K one of single-link, leaf-spine, fat-tree, cross-dc,
//              nvlink-island, graph and its keys (tables topology-<K>)
// A network:   {"topology": T, "setup_time", "prefill_hosts", "decode_hosts", "traces",
//               "background", "rate_tolerance", "rate_quantum", "scheduling"}; only "topology" is
//               required (table network).
// Every quantity with a unit is a string with that unit; a bare number is an error. Unknown keys,
// wrong types and impossible values are errors naming their JSON path; all errors of a document are
// collected and thrown together as one NetConfigError. The resolved form (every key, defaults
// included, written values kept as written) is what a scenario's resolved file holds.
// Trace CSV: a header line of two column names, then "time,rate" rows whose cells carry units
// ("0.5s,2.5Gbps"); a header naming units ("time_s,rate_Gbps") lets the cells be bare numbers.

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/net/network_spec.hpp"
#include "sim/net/topology_size.hpp"
#include "sim/scenario/scenario_error.hpp"

namespace lynxsim::scenario {

class NetConfigError : public std::invalid_argument {
public:
  explicit NetConfigError(std::vector<ScenarioIssue> issues);
  const std::vector<ScenarioIssue>& issues() const { return issues_; }

private:
  std::vector<ScenarioIssue> issues_;
};

// A topology larger than `limits` (topology_size.hpp) is an error at json_path_prefix, found
// before anything is built.
// `resolved`, when given, receives the resolved topology object.
net::TopologySpec parse_topology(const nlohmann::json& json, const std::string& json_path_prefix,
                                 const net::TopologyLimits& limits = {}, nlohmann::json* resolved = nullptr);
// Relative trace CSV paths are resolved against base_dir. `resolved`, when given, receives the
// resolved network object.
net::NetworkSpec parse_network(const nlohmann::json& json, const std::string& json_path_prefix,
                               const std::string& base_dir = ".",
                               const net::TopologyLimits& limits = {}, nlohmann::json* resolved = nullptr);
// Throws std::invalid_argument with the file name and line on a malformed file.
std::vector<net::TracePoint> load_bandwidth_trace_csv(const std::string& path);

}  // namespace lynxsim::scenario
