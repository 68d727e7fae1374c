#pragma once
// A scenario's serving configuration ready to run: its ServingConfig, whose network is built from
// the scenario's network section for each run. The configuration refers to `s`, which must
// outlive it. (A traced run builds its own, to attach an observer to the network.)

#include "sim/scenario/scenario.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::app {

serving::ServingConfig runnable_serving(const scenario::Scenario& s);

}  // namespace lynxsim::app
