#pragma once
// One run of a scenario, the steps `lynxsim --scenario` (cmd_run.cpp) and the Python module
// (python/engine_module.cpp) share, so both give the same results for the same scenario and seed:
//   load_run_scenario   the scenario file (or JSON text) with its overrides and seed, through the
//                       checks of scenario_check.hpp (bad input: ScenarioError, exit code 2);
//                       validate_run_scenario loads as a run would and sizes the run;
//   check_run_target    the results folder may be written (report/output_path.hpp,
//                       report/results_target.hpp), checked before anything is simulated;
//   simulate_run        each method's quality measured (method_quality.hpp), then every method
//                       simulated in scenario order, traced as asked; a broken invariant of the
//                       models is an InternalError (exit code 70);
//   run_outputs         what report::write_results_folder writes and summary.json holds.

#include <filesystem>
#include <vector>

#include "sim/app/commands.hpp"
#include "sim/app/trace_filter.hpp"
#include "sim/report/results_folder.hpp"
#include "sim/report/trace_writer.hpp"
#include "sim/scenario/resource_estimate.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serving/request_metrics.hpp"

namespace lynxsim::app {

scenario::Scenario load_run_scenario(const DataPaths& data, const RunOptions& options,
                                     const TraceFilter& filter);

// `lynxsim validate`: the scenario loaded as a run would load it, and the size of that run.
struct ScenarioValidation {
  scenario::Scenario scenario;
  scenario::ResourceEstimate resources;
  std::int64_t memory_estimate = 0;  // bytes (scenario_check.hpp's run_memory_estimate)
  std::int64_t memory_limit = 0;     // bytes (memory_limit.hpp)
};
ScenarioValidation validate_run_scenario(const DataPaths& data, const ValidateOptions& options,
                                         const TraceFilter& filter);

void check_run_target(const std::filesystem::path& out, bool force);

// The progress line on stderr as options.progress and options.quiet ask (run_progress.hpp).
std::vector<serving::MethodResult> simulate_run(const DataPaths& data, const scenario::Scenario& s,
                                                const RunOptions& options, const TraceFilter& filter,
                                                report::TraceWriter& trace);

// The outputs refer to `s`, `results` and `trace` (written when not null); the run table (printed,
// and shown by index.html) has every column with `wide`, the client's TTFT percentiles with
// `percentiles` (--wide, --percentiles).
report::RunOutputs run_outputs(const scenario::Scenario& s, const std::vector<serving::MethodResult>& results,
                               const report::TraceWriter* trace, bool wide = false, bool percentiles = false);

// The stderr warning of a trace that kept only its first events (none when it kept all).
void warn_if_truncated(const report::TraceWriter& trace);

}  // namespace lynxsim::app
