#pragma once
// What a deployment costs per hour, and per million output tokens at a request rate.
//
//   $/hour = sum over instance groups of count * tp * gpu_price(gpu)
//          + GPUs * port_price(host port rate)
// Every GPU has one network port (NIC and its share of a switch port) at the rate of the links
// that attach the hosts (host_port_rate below); a port is priced at the first row of the price
// table whose rate is at least that rate (ports are sold in steps: 25, 100, 200, 400 Gb/s).
//   $ per million output tokens = $/hour / (rate * mean output tokens * 3600) * 1e6
// at a sustained request rate `rate` (requests per second).
// The price table (data/prices.json, read by sim/scenario/price_file.hpp) names a source and a
// date for every figure.

#include <map>
#include <string>
#include <vector>

#include "sim/core/units.hpp"
#include "sim/net/network_spec.hpp"

namespace lynxsim::plan {

struct Price {
  double usd_per_hour = 0.0;
  std::string source;
  std::string date;
};

struct PortPrice {
  BitsPerSecond rate;
  Price price;
};

struct PriceTable {
  std::map<std::string, Price> gpus;  // by GPU profile name (configs/gpus/)
  std::vector<PortPrice> ports;       // ascending rate
};

struct GpuGroup {
  std::string gpu;
  int tensor_parallel = 1;
  int count = 1;
};

struct DeploymentCost {
  int gpus = 0;
  double gpu_usd_per_hour = 0.0;
  double network_usd_per_hour = 0.0;
  double usd_per_hour() const { return gpu_usd_per_hour + network_usd_per_hour; }
};

// The line rate of the links that attach the hosts: the single link, the host links of a
// leaf-spine, fat tree or cross-DC pair, the NVLink of an island, the slowest link of a graph.
BitsPerSecond host_port_rate(const net::TopologySpec& topology);

// Throws std::invalid_argument naming a GPU without a price, or a port rate above every priced one.
DeploymentCost deployment_cost(const PriceTable& prices, const std::vector<GpuGroup>& groups,
                               BitsPerSecond port_rate);

double usd_per_million_tokens(double usd_per_hour, double requests_per_s, double mean_output_tokens);

}  // namespace lynxsim::plan
