#pragma once
// One serving run: a method's transfer of every request of the workload through the cluster
// (serving_cluster.hpp), on a fresh simulator seeded from the scenario seed (every method sees the
// same arrivals and the same random streams).
//
// Acceptance used for speculative methods, first found wins: the method's own `acceptance`, the
// scenario's speculation.acceptance, the measured MethodQuality::acceptance.
// Decode instances fold quiet steps into one event (decode_instance.hpp); in the rare run where a
// folded step would share its picosecond with another event, the method runs again step by step.
// Throws std::invalid_argument for impossible configurations, std::runtime_error for a request that
// can never fit a decode instance's memory, UnservedRequests when requests could not be served
// because their flows could not finish within the clock (a rate the scenario gave too low for the
// load), std::logic_error if a request never finishes otherwise (a broken invariant).

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/serving/request_metrics.hpp"
#include "sim/serving/serving_config.hpp"
#include "sim/quant/method_spec.hpp"

namespace lynxsim::serving {

// Requests a run could not serve, and why (the serving model itself did not stall: the network
// could not deliver their flows within the simulator's clock).
class UnservedRequests : public std::runtime_error {
public:
  UnservedRequests(std::vector<std::uint64_t> ids, std::string cause);
  const std::vector<std::uint64_t>& ids() const { return ids_; }

private:
  std::vector<std::uint64_t> ids_;
};

// Observers can be attached to the simulator before the run starts (e.g. a trace writer).
using SimulatorHook = std::function<void(Simulator&)>;

MethodResult run_serving(const ServingConfig& config, const quant::MethodSpec& method,
                         const MethodQuality& quality, const SimulatorHook& hook = {});

double effective_acceptance(const ServingConfig& config, const quant::MethodSpec& method,
                            const MethodQuality& quality);

}  // namespace lynxsim::serving
