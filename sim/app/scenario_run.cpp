#include "sim/app/scenario_run.hpp"

#include <fmt/format.h>
#include <stdexcept>

#include "sim/app/input_errors.hpp"
#include "sim/app/memory_limit.hpp"
#include "sim/app/method_quality.hpp"
#include "sim/app/run_energy.hpp"
#include "sim/app/run_progress.hpp"
#include "sim/app/scenario_check.hpp"
#include "sim/app/scenario_serving.hpp"
#include "sim/app/trace_observer.hpp"
#include "sim/net/network_factory.hpp"
#include "sim/report/method_summary.hpp"
#include "sim/report/output_path.hpp"
#include "sim/report/result_table.hpp"
#include "sim/report/results_target.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/serving/serving_run.hpp"

namespace lynxsim::app {
namespace {

serving::MethodResult run_traced(const scenario::Scenario& s, std::size_t i,
                                 const serving::MethodQuality& quality, report::TraceWriter& trace,
                                 const TraceFilter& filter, int& next_pid,
                                 const serving::SimulatorHook& progress_hook) {
  serving::ServingConfig config = s.serving;
  TraceObserver observer(trace, filter, next_pid,
                         {&s.methods[i], serving::expand_instances(config.prefill, config.extra_prefill),
                          serving::expand_instances(config.decode, config.extra_decode)});
  next_pid += observer.process_count();
  config.make_network = [&s, &observer](Simulator& sim) {
    auto network = net::make_network(sim, s.network);
    observer.attach_network(sim, *network);
    return network;
  };
  serving::MethodResult result = serving::run_serving(
      config, s.methods[i], quality, [&observer, &progress_hook](Simulator& sim) {
        observer.attach(sim);
        progress_hook(sim);
      });
  observer.finish();
  return result;
}

std::vector<serving::MethodResult> run_methods(const scenario::Scenario& s,
                                               const std::vector<serving::MethodQuality>& qualities,
                                               report::TraceWriter* trace, const TraceFilter& filter,
                                               RunProgress& progress) {
  const serving::ServingConfig config = runnable_serving(s);
  std::vector<serving::MethodResult> results;
  int next_pid = 1;
  for (std::size_t i = 0; i < s.methods.size(); ++i) {
    const serving::SimulatorHook progress_hook = [&progress, i, &s](Simulator& sim) {
      progress.attach(sim, i, s.methods[i].name);
    };
    if (trace != nullptr && filter.keeps_method(s.methods[i].name)) {
      results.push_back(run_traced(s, i, qualities[i], *trace, filter, next_pid, progress_hook));
    } else {
      results.push_back(serving::run_serving(config, s.methods[i], qualities[i], progress_hook));
    }
  }
  return results;
}

ScenarioRequest scenario_request(const RunOptions& options, const TraceFilter& filter) {
  ScenarioRequest request;
  request.file = options.scenario;
  request.text = options.scenario_text;
  request.overrides = options.overrides;
  request.seed = options.seed;
  if (options.trace) request.trace_limit = options.trace_limit;
  request.trace_methods = filter.methods();
  request.trace_filtered = filter.has_window() || filter.filters_requests();
  request.memory_limit = options.memory_limit;
  return request;
}

RunOptions validated_run(const ValidateOptions& options) {
  RunOptions run;
  run.scenario = options.file;
  run.scenario_text = options.text;
  run.overrides = options.overrides;
  run.trace = options.trace;
  run.trace_limit = options.trace_limit;
  run.memory_limit = options.memory_limit;
  return run;
}

}  // namespace

scenario::Scenario load_run_scenario(const DataPaths& data, const RunOptions& options,
                                     const TraceFilter& filter) {
  const AllocationScope loading(fmt::format("loading scenario {}", options.scenario.string()));
  return load_checked_scenario(data, scenario_request(options, filter));
}

ScenarioValidation validate_run_scenario(const DataPaths& data, const ValidateOptions& options,
                                         const TraceFilter& filter) {
  const ScenarioRequest request = scenario_request(validated_run(options), filter);
  const AllocationScope loading(fmt::format("loading scenario {}", options.file.string()));
  ScenarioValidation v{load_checked_scenario(data, request), {}, 0, memory_limit_bytes(options.memory_limit)};
  v.resources = scenario::estimate_resources(v.scenario);
  v.memory_estimate = run_memory_estimate(v.scenario, request);
  return v;
}

void check_run_target(const std::filesystem::path& out, bool force) {
  report::check_output_path(out, "--out");
  report::check_results_target(out, force);
}

std::vector<serving::MethodResult> simulate_run(const DataPaths& data, const scenario::Scenario& s,
                                                const RunOptions& options, const TraceFilter& filter,
                                                report::TraceWriter& trace) {
  const AllocationScope running(fmt::format("running scenario {} ({} requests, {} methods)", options.scenario.string(),
                                            s.serving.requests.size(), s.methods.size()));
  const std::vector<serving::MethodQuality> qualities = measure_method_qualities(data, s);
  RunProgress progress(progress_wanted(options.progress, options.quiet), s.methods.size(),
                       s.serving.requests.size());
  try {
    std::vector<serving::MethodResult> results =
        run_methods(s, qualities, options.trace ? &trace : nullptr, filter, progress);
    progress.finish();
    attach_energy(data, s, results);
    return results;
  } catch (const serving::UnservedRequests& e) {
    throw scenario::ScenarioError(s.source_file, {{"/network", e.what()}});
  } catch (const std::length_error&) {
    throw;
  } catch (const std::logic_error& e) {
    throw InternalError(fmt::format("{} (while simulating scenario \"{}\"); please report this with "
                                    "the scenario file and the command line", e.what(), s.name));
  }
}

report::RunOutputs run_outputs(const scenario::Scenario& s, const std::vector<serving::MethodResult>& results,
                               const report::TraceWriter* trace, bool wide, bool percentiles) {
  report::TableOptions table;
  table.wide = wide;
  table.percentiles = percentiles;
  table.accuracy_columns = {"needle_accuracy"};
  if (wide) table.accuracy_columns = {"key_snr_db", "value_snr_db", "attention_kl", "needle_accuracy", "anchor_key_snr_db"};
  report::RunOutputs outputs;
  outputs.scenario_name = s.name;
  outputs.resolved_scenario = s.resolved;
  outputs.results = results;
  outputs.trace = trace;
  if (s.serving.engine) outputs.engine = s.serving.engine->name;
  outputs.run_table = report::format_result_table(report::summarize_methods(results), table);
  return outputs;
}

void warn_if_truncated(const report::TraceWriter& trace) {
  if (trace.dropped_events() == 0) return;
  fmt::print(stderr,
             "lynxsim: warning: trace.json holds the first {} events of the run and ends with a "
             "\"trace truncated\" marker; {} more were dropped (trace a window, some requests, methods "
             "or links: --trace-window, --trace-requests, --trace-methods, --trace-links; or raise "
             "--trace-limit)\n", trace.event_limit(), trace.dropped_events());
}

}  // namespace lynxsim::app
