#pragma once
// The one gate between a scenario file and a run: `lynxsim validate` and `lynxsim --scenario`
// both load through load_checked_scenario, so validate refuses exactly what a run would refuse.
//
// Beyond the scenario layer's checks (parse_scenario: syntax, keys, types, units, limits and the
// resource estimate of scenario/resource_estimate.hpp), it checks what needs the other layers:
//   - with accuracy enabled, every method must map to a method the accuracy measurement knows
//     (a lynx method with a midpoint anchor needs at least two planes whose widths add up to 8,
//     and an anchor of fewer planes than all); the issue names /methods/N/planes or
//     /methods/N/decode_after_planes;
//   - a kv_file must be one the run can read: for the precision measurement, KV of the model's
//     geometry with enough tokens; for CacheGen's size measurement, a readable KV file
//     (/accuracy/kv_file; only headers are read);
//   - the run's estimated peak memory (run_memory_estimate) must fit the memory limit (--memory-limit,
//     by default this machine's memory, app/memory_limit.hpp), else the run is refused before it
//     starts, naming /workload or, when the network is the larger part, /network/topology;
//   - with a trace, the events the run records at least (one per KV flow, three per request, of
//     the traced methods) must fit trace_limit, else the run is refused before it starts, naming
//     /workload; a trace filtered by time or by request is not refused (its size is known only
//     after the run; the limit still bounds it).
// Every problem is a ScenarioError (exit code 2) naming the file and JSON path.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/app/data_paths.hpp"
#include "sim/scenario/scenario.hpp"

namespace lynxsim::app {

struct ScenarioRequest {
  std::filesystem::path file;
  std::optional<std::string> text;           // the scenario's JSON, named `file` in messages
  std::vector<std::string> overrides;
  std::optional<std::uint64_t> seed;
  std::optional<std::int64_t> trace_limit;  // a trace is written, of at most this many events
  std::vector<std::string> trace_methods;    // the methods traced (empty: all)
  bool trace_filtered = false;               // by --trace-window or --trace-requests
  std::optional<std::string> memory_limit;   // --memory-limit (absent: this machine's memory)
};

scenario::Scenario load_checked_scenario(const DataPaths& data, const ScenarioRequest& request);

// The estimated peak memory of running `s` as requested: scenario/memory_estimate.hpp's model with
// the trace events the run may keep, plus accuracy/accuracy_memory.hpp's when accuracy is enabled.
std::int64_t run_memory_estimate(const scenario::Scenario& s, const ScenarioRequest& request);

// The trace events every run of `s` records with these methods traced (empty: all; a lower
// bound, see above).
std::int64_t trace_events_at_least(const scenario::Scenario& s,
                                   const std::vector<std::string>& traced_methods);

}  // namespace lynxsim::app
