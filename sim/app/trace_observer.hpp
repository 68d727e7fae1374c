#pragma once
// Turns the events of a serving run into Chrome trace events.
//
// Each method of a run gets three trace processes: "<method> prefill" (one span per prefill layer,
// thread = request), "<method> network" (one span per flow from its start to the arrival of its
// last byte, thread = priority class, i.e. plane) and "<method> decode" (decode steps on thread 0,
// KV kernels on thread 1, verifications and request completions as instants on thread 2).

#include <string>

#include "sim/core/simulator.hpp"
#include "sim/report/trace_writer.hpp"

namespace lynxsim::app {

void attach_trace(Simulator& sim, report::TraceWriter& trace, int method_index,
                  const std::string& method_name);

}  // namespace lynxsim::app
