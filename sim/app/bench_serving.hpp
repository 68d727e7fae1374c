#pragma once
// `lynxsim bench serving`: the speed of the serving simulator on a realistic workload.
//
// Runs the full Mooncake conversation hour (scenarios/mooncake-hour-h100-8p8d.json: 12,031
// requests, 8 prefill and 8 decode H100 instances of Llama-3.1-8B on a 400 Gb/s leaf-spine) once
// per quickstart method (bf16, int8, int4, lynx) and prints, per method and in total, the wall
// time, the events executed per wall second and the simulated seconds per wall second. Accuracy
// is not measured (it would time sim/accuracy, not the simulator): speculative methods run with a
// fixed acceptance of 0.8, so the figures depend only on the simulator and the machine.

#include "sim/app/data_paths.hpp"

namespace lynxsim::app {

int cmd_bench_serving(const DataPaths& data);

}  // namespace lynxsim::app
