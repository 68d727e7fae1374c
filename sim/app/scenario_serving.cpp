#include "sim/app/scenario_serving.hpp"

#include "sim/net/network_factory.hpp"

namespace lynxsim::app {

serving::ServingConfig runnable_serving(const scenario::Scenario& s) {
  serving::ServingConfig config = s.serving;
  config.make_network = [&s](Simulator& sim) { return net::make_network(sim, s.network); };
  return config;
}

}  // namespace lynxsim::app
