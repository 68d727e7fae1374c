#include <fmt/format.h>
#include <stdexcept>

#include "sim/app/commands.hpp"
#include "sim/app/input_errors.hpp"
#include "sim/app/memory_limit.hpp"
#include "sim/app/method_quality.hpp"
#include "sim/app/run_energy.hpp"
#include "sim/app/run_progress.hpp"
#include "sim/app/scenario_check.hpp"
#include "sim/app/scenario_serving.hpp"
#include "sim/app/trace_observer.hpp"
#include "sim/core/printable.hpp"
#include "sim/net/network_factory.hpp"
#include "sim/report/method_summary.hpp"
#include "sim/report/output_path.hpp"
#include "sim/report/result_table.hpp"
#include "sim/report/results_folder.hpp"
#include "sim/report/results_target.hpp"
#include "sim/scenario/resource_estimate.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/serving/serving_run.hpp"

namespace lynxsim::app {
namespace {

ScenarioRequest scenario_request(const std::filesystem::path& file,
                                 const std::vector<std::string>& overrides,
                                 std::optional<std::uint64_t> seed, bool trace, std::int64_t limit,
                                 const TraceFilter& filter, const std::optional<std::string>& memory_limit) {
  ScenarioRequest request;
  request.file = file;
  request.overrides = overrides;
  request.seed = seed;
  if (trace) request.trace_limit = limit;
  request.trace_methods = filter.methods();
  request.trace_filtered = filter.has_window() || filter.filters_requests();
  request.memory_limit = memory_limit;
  return request;
}

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

void warn_if_truncated(const report::TraceWriter& trace) {
  if (trace.dropped_events() == 0) return;
  fmt::print(stderr,
             "lynxsim: warning: trace.json holds the first {} events of the run and ends with a "
             "\"trace truncated\" marker; {} more were dropped (trace a window, some requests, methods "
             "or links: --trace-window, --trace-requests, --trace-methods, --trace-links; or raise "
             "--trace-limit)\n", trace.event_limit(), trace.dropped_events());
}

std::string trace_size_note(const scenario::Scenario& s, const TraceFilter& filter) {
  const std::int64_t events = trace_events_at_least(s, filter.methods());
  if (filter.has_window() || filter.filters_requests()) {
    return fmt::format(", a trace filtered by window or requests (unfiltered: at least {} trace "
                       "events)", events);
  }
  return fmt::format(", at least {} trace events", events);
}

}  // namespace

int cmd_run(const DataPaths& data, const RunOptions& options) {
  const TraceFilter filter = parse_trace_filter(options.trace_filter);
  const AllocationScope loading(fmt::format("loading scenario {}", options.scenario.string()));
  const scenario::Scenario s = load_checked_scenario(
      data, scenario_request(options.scenario, options.overrides, options.seed, options.trace,
                             options.trace_limit, filter, options.memory_limit));
  const std::filesystem::path out = options.out.value_or(std::filesystem::path("results") / "runs" / s.name);
  report::check_output_path(out, "--out");
  report::check_results_target(out, options.force);
  const AllocationScope running(fmt::format("running scenario {} ({} requests, {} methods)", options.scenario.string(),
                                            s.serving.requests.size(), s.methods.size()));
  const std::vector<serving::MethodQuality> qualities = measure_method_qualities(data, s);
  report::TraceWriter trace(static_cast<std::size_t>(options.trace_limit));
  std::vector<serving::MethodResult> results;
  RunProgress progress(progress_wanted(options.progress, options.quiet), s.methods.size(),
                       s.serving.requests.size());
  try {
    results = run_methods(s, qualities, options.trace ? &trace : nullptr, filter, progress);
    progress.finish();
    attach_energy(data, s, results);
  } catch (const serving::UnservedRequests& e) {
    throw scenario::ScenarioError(s.source_file, {{"/network", e.what()}});
  } catch (const std::length_error&) {
    throw;
  } catch (const std::logic_error& e) {
    throw InternalError(fmt::format("{} (while simulating scenario \"{}\"); please report this with "
                                    "the scenario file and the command line", e.what(), s.name));
  }
  report::TableOptions table;
  table.wide = options.wide;
  table.percentiles = options.percentiles;
  table.accuracy_columns = {"key_snr_db", "value_snr_db", "attention_kl", "needle_accuracy",
                            "anchor_key_snr_db"};
  if (!options.wide) table.accuracy_columns = {"needle_accuracy"};
  report::RunOutputs outputs;
  outputs.scenario_name = s.name;
  outputs.resolved_scenario = s.resolved;
  outputs.results = results;
  outputs.trace = options.trace ? &trace : nullptr;
  if (s.serving.engine) outputs.engine = s.serving.engine->name;
  outputs.run_table = report::format_result_table(report::summarize_methods(results), table);
  report::write_results_folder(out, outputs, options.force);
  if (!options.quiet) {
    const std::string engine = s.serving.engine ? s.serving.engine->name : "none";
    const std::string heading =
        fmt::format("{}: {} (serving engine: {})", s.name, terminal_text(s.description), engine);
    fmt::print("{}\n\n{}\n", report::wrap_text(heading, report::kTableTextWidth), outputs.run_table);
  }
  warn_if_truncated(trace);
  fmt::print("results: {}\n", terminal_text(out.string()));
  return 0;
}

int cmd_validate(const DataPaths& data, const ValidateOptions& options) {
  const TraceFilter filter = parse_trace_filter(options.trace_filter);
  const AllocationScope loading(fmt::format("loading scenario {}", options.file.string()));
  const ScenarioRequest request = scenario_request(options.file, options.overrides, std::nullopt, options.trace,
                                                   options.trace_limit, filter, options.memory_limit);
  const scenario::Scenario s = load_checked_scenario(data, request);
  const scenario::ResourceEstimate e = scenario::estimate_resources(s);
  fmt::print("{}: ok ({} methods, {} requests; {} hosts, {} links, {} + {} GPUs, at most {} "
             "flows{}; estimated memory {} of {})\n", terminal_text(options.file.string()), s.methods.size(),
             s.serving.requests.size(), e.network.hosts, e.network.links, e.prefill_ranks, e.decode_ranks,
             e.flows_at_most, options.trace ? trace_size_note(s, filter) : std::string(),
             format_memory(run_memory_estimate(s, request)), format_memory(memory_limit_bytes(options.memory_limit)));
  return 0;
}

}  // namespace lynxsim::app
