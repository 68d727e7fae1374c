#include "sim/net/link_faults.hpp"

#include <memory>

#include "sim/net/flow_network.hpp"

namespace lynxsim::net {
namespace {

// Outages in progress per directed link, and the rate each link comes back at.
struct FaultState {
  FlowNetwork* network = nullptr;
  std::vector<int> down;
  std::vector<BitsPerSecond> rate;
};

void go_down(FaultState& s, const std::vector<LinkId>& links) {
  for (const LinkId l : links) {
    if (s.down[l]++ > 0) continue;
    s.rate[l] = s.network->link_rate(l);
    s.network->set_link_rate(l, BitsPerSecond{0.0});
  }
}

void come_back(FaultState& s, const std::vector<LinkId>& links) {
  for (const LinkId l : links) {
    if (--s.down[l] == 0) s.network->set_link_rate(l, s.rate[l]);
  }
}

std::vector<Time> outage_starts(Simulator& sim, const LinkFaultSpec& f, std::size_t index) {
  std::vector<Time> starts;
  if (f.failures_per_s > 0.0) {
    RngStream& rng = sim.rng("net.fault." + std::to_string(index));
    for (Time t = f.down_at + Time::from_seconds(rng.exponential(f.failures_per_s)); t < f.until;
         t += Time::from_seconds(rng.exponential(f.failures_per_s))) {
      starts.push_back(t);
    }
    return starts;
  }
  for (int k = 0; k < f.count; ++k) starts.push_back(f.down_at + f.every.value_or(Time::zero()) * k);
  return starts;
}

}  // namespace

std::optional<std::string> link_fault_problem(const LinkFaultSpec& f) {
  if (f.down_for <= Time::zero()) return "a link fault needs a positive down_for";
  if (f.count > 1 && !f.every) return "a flap of several outages needs `every`";
  if (f.every && *f.every <= f.down_for) return "a flap's period (`every`) must exceed its down_for";
  if (f.failures_per_s > 0.0 && f.until <= f.down_at) return "random outages need `until` after down_at";
  return std::nullopt;
}

void play_link_faults(FlowNetwork& network, const std::vector<LinkFaultSpec>& faults) {
  if (faults.empty()) return;
  auto state = std::make_shared<FaultState>();
  state->network = &network;
  state->down.assign(network.topology().num_links(), 0);
  state->rate.assign(network.topology().num_links(), BitsPerSecond{0.0});
  Simulator& sim = network.simulator();
  for (std::size_t i = 0; i < faults.size(); ++i) {
    const LinkFaultSpec& f = faults[i];
    if (const auto problem = link_fault_problem(f)) throw std::invalid_argument(*problem);
    const auto links = std::make_shared<const std::vector<LinkId>>(network.topology().links_by_name(f.link));
    for (const Time start : outage_starts(sim, f, i)) {
      sim.schedule_at(start, [state, links] { go_down(*state, *links); });
      sim.schedule_at(start + f.down_for, [state, links] { come_back(*state, *links); });
    }
  }
}

}  // namespace lynxsim::net
