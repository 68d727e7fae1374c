#include <fmt/format.h>

#include "sim/app/commands.hpp"
#include "sim/app/memory_limit.hpp"
#include "sim/app/scenario_check.hpp"
#include "sim/app/scenario_run.hpp"
#include "sim/core/printable.hpp"
#include "sim/report/method_summary.hpp"
#include "sim/report/result_table.hpp"

namespace lynxsim::app {
namespace {

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
  const scenario::Scenario s = load_run_scenario(data, options, filter);
  const std::filesystem::path out = options.out.value_or(std::filesystem::path("results") / "runs" / s.name);
  check_run_target(out, options.force);
  report::TraceWriter trace(static_cast<std::size_t>(options.trace_limit));
  const std::vector<serving::MethodResult> results = simulate_run(data, s, options, filter, trace);
  const report::RunOutputs outputs =
      run_outputs(s, results, options.trace ? &trace : nullptr, options.wide, options.percentiles);
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
  const ScenarioValidation v = validate_run_scenario(data, options, filter);
  const scenario::ResourceEstimate& e = v.resources;
  fmt::print("{}: ok ({} methods, {} requests; {} hosts, {} links, {} + {} GPUs, at most {} "
             "flows{}; estimated memory {} of {})\n", terminal_text(options.file.string()), v.scenario.methods.size(),
             v.scenario.serving.requests.size(), e.network.hosts, e.network.links, e.prefill_ranks, e.decode_ranks,
             e.flows_at_most, options.trace ? trace_size_note(v.scenario, filter) : std::string(),
             format_memory(v.memory_estimate), format_memory(v.memory_limit));
  return 0;
}

}  // namespace lynxsim::app
