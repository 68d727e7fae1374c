#include "sim/plan/deployment_cost.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace lynxsim::plan {
namespace {

struct HostRate {
  double operator()(const net::SingleLinkTopology& t) const { return t.link.rate.value; }
  double operator()(const net::LeafSpineTopology& t) const { return t.host_link.rate.value; }
  double operator()(const net::FatTreeTopology& t) const {
    return t.host_link ? t.host_link->rate.value : t.link.rate.value;
  }
  double operator()(const net::CrossDcTopology& t) const { return t.host_link.rate.value; }
  double operator()(const net::NvlinkIslandTopology& t) const { return t.nvlink.rate.value; }
  double operator()(const net::GraphTopology& t) const {
    double slowest = std::numeric_limits<double>::infinity();
    for (const net::GraphLink& l : t.links) slowest = std::min(slowest, l.spec.rate.value);
    return slowest;
  }
};

const Price& port_price(const PriceTable& prices, BitsPerSecond rate) {
  for (const PortPrice& p : prices.ports) {
    if (p.rate.value >= rate.value) return p.price;
  }
  throw std::invalid_argument(fmt::format("no port price for {:g} Gb/s (the price table's fastest port "
                                          "is {:g} Gb/s)", rate.value / 1e9,
                                          prices.ports.empty() ? 0.0 : prices.ports.back().rate.value / 1e9));
}

}  // namespace

BitsPerSecond host_port_rate(const net::TopologySpec& topology) {
  return BitsPerSecond{std::visit(HostRate{}, topology)};
}

DeploymentCost deployment_cost(const PriceTable& prices, const std::vector<GpuGroup>& groups,
                               BitsPerSecond port_rate) {
  DeploymentCost cost;
  for (const GpuGroup& g : groups) {
    const auto it = prices.gpus.find(g.gpu);
    if (it == prices.gpus.end()) {
      throw std::invalid_argument(fmt::format("no price for GPU \"{}\" in the price table", g.gpu));
    }
    const int gpus = g.count * g.tensor_parallel;
    cost.gpus += gpus;
    cost.gpu_usd_per_hour += gpus * it->second.usd_per_hour;
  }
  cost.network_usd_per_hour = cost.gpus * port_price(prices, port_rate).usd_per_hour;
  return cost;
}

double usd_per_million_tokens(double usd_per_hour, double requests_per_s, double mean_output_tokens) {
  const double tokens_per_hour = requests_per_s * mean_output_tokens * 3600.0;
  if (tokens_per_hour <= 0.0) return std::numeric_limits<double>::infinity();
  return usd_per_hour / tokens_per_hour * 1e6;
}

}  // namespace lynxsim::plan
