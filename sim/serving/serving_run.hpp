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
// can never fit a decode instance's memory, std::logic_error if a request never finishes.

#include "sim/serving/request_metrics.hpp"
#include "sim/serving/serving_config.hpp"
#include "sim/quant/method_spec.hpp"

namespace lynxsim::serving {

// Observers can be attached to the simulator before the run starts (e.g. a trace writer).
using SimulatorHook = std::function<void(Simulator&)>;

MethodResult run_serving(const ServingConfig& config, const quant::MethodSpec& method,
                         const MethodQuality& quality, const SimulatorHook& hook = {});

double effective_acceptance(const ServingConfig& config, const quant::MethodSpec& method,
                            const MethodQuality& quality);

}  // namespace lynxsim::serving
