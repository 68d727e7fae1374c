#pragma once
// Strict JSON for network configurations (schema also in configs/topologies/README.md).
//
// A link:      {"rate": "100Gbps", "latency": "2us", "efficiency": 0.8}   efficiency optional (1.0)
// A topology:  {"kind": K, ...} with K and its keys:
//   "single-link"    link
//   "leaf-spine"     leaves, hosts_per_leaf, spines (integers >= 1), host_link, and either
//                    uplink (a link) or oversubscription (number > 0) with uplink_latency and
//                    optional uplink_efficiency
//   "fat-tree"       k (even >= 2), link, optional host_link
//   "cross-dc"       hosts_per_site, host_link, wan: {"rate", "rtt", "efficiency"}
//   "nvlink-island"  gpus (>= 2), nvlink
//   "graph"          hosts: [names], switches: [names], links: [{"a", "b", rate, latency,
//                    efficiency, optional "name"}]
// A network:   {"topology": T, "setup_time": "1ms", "prefill_hosts": [...], "decode_hosts": [...],
//               "traces": [{"link": name, "points": [["0s", "2Gbps"], ...] | "csv": path,
//                           "repeat": bool}],
//               "background": [{"src", "dst", "rate", "on_time", "off_time", "exponential",
//                               "start_at", "stop_at", "priority_class", "label"}],
//               "rate_tolerance": 1e-3, "rate_quantum": "10us"}
//   only "topology" is required; setup_time defaults to "0s", rate_tolerance to 1e-9 (exact rates),
//   rate_quantum to "0s" (rates re-solved at every change; see network_spec.hpp).
// Every quantity with a unit is a string with that unit; a bare number is an error. Unknown keys,
// wrong types and impossible values are errors naming their JSON path; all errors of a document are
// collected and thrown together as one NetConfigError.
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
net::TopologySpec parse_topology(const nlohmann::json& json, const std::string& json_path_prefix,
                                 const net::TopologyLimits& limits = {});
// Relative trace CSV paths are resolved against base_dir.
net::NetworkSpec parse_network(const nlohmann::json& json, const std::string& json_path_prefix,
                               const std::string& base_dir = ".",
                               const net::TopologyLimits& limits = {});
// Throws std::invalid_argument with the file name and line on a malformed file.
std::vector<net::TracePoint> load_bandwidth_trace_csv(const std::string& path);

}  // namespace lynxsim::scenario
