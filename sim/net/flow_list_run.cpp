#include "sim/net/flow_list_run.hpp"

#include <fmt/format.h>
#include <stdexcept>

#include "sim/core/simulator.hpp"
#include "sim/net/network_factory.hpp"

namespace lynxsim::net {
namespace {

std::vector<FlowSpec> resolve(const FlowNetwork& network, const std::vector<FlowListEntry>& flows,
                              const std::string& source) {
  std::vector<FlowSpec> specs;
  specs.reserve(flows.size());
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const FlowListEntry& f = flows[i];
    FlowSpec s;
    const std::string& where = f.where.empty() ? source : f.where;
    try {
      s.src = network.host_by_name(f.src);
      s.dst = network.host_by_name(f.dst);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("{}: {}", where, e.what()));
    }
    if (s.src == s.dst) {
      throw std::invalid_argument(
          fmt::format("{}: source and destination are the same host", where));
    }
    s.size = f.size;
    s.priority_class = f.priority_class;
    s.weight = f.weight;
    s.label = f.label.empty() ? fmt::format("flow{}", i) : f.label;
    s.tag = static_cast<std::int64_t>(i);
    specs.push_back(std::move(s));
  }
  return specs;
}

}  // namespace

std::vector<FlowListResult> run_flow_list(const NetworkSpec& spec,
                                          const std::vector<FlowListEntry>& flows,
                                          std::uint64_t seed, const std::string& source) {
  Simulator sim(seed);
  auto network = make_flow_network(sim, spec);
  std::vector<FlowSpec> specs = resolve(*network, flows, source);
  std::vector<FlowListResult> results(flows.size());
  const FlowDone done = [&results](const FlowRecord& r) {
    results[static_cast<std::size_t>(r.spec.tag)].record = r;
  };
  for (std::size_t i = 0; i < flows.size(); ++i) {
    sim.schedule_at(flows[i].start, [&, i] {
      const FlowId id = network->start_flow(specs[i], done);
      results[i].route = network->route_of(id);
    });
  }
  sim.run();
  return results;
}

}  // namespace lynxsim::net
