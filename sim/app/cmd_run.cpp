#include <fmt/format.h>

#include "sim/app/commands.hpp"
#include "sim/app/method_quality.hpp"
#include "sim/app/trace_observer.hpp"
#include "sim/net/network_factory.hpp"
#include "sim/report/method_summary.hpp"
#include "sim/report/result_table.hpp"
#include "sim/report/results_folder.hpp"
#include "sim/report/results_target.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serving/serving_run.hpp"

namespace lynxsim::app {
namespace {

scenario::Scenario load(const DataPaths& data, const std::filesystem::path& file,
                        std::vector<std::string> overrides, std::optional<std::uint64_t> seed) {
  if (seed) overrides.push_back(fmt::format("seed={}", *seed));
  return scenario::load_scenario(file, overrides, scenario::DataPaths::from_root(data.root));
}

std::vector<serving::MethodResult> run_methods(const scenario::Scenario& s,
                                               const std::vector<serving::MethodQuality>& qualities,
                                               report::TraceWriter* trace) {
  serving::ServingConfig config = s.serving;
  config.make_network = [&s](Simulator& sim) { return net::make_network(sim, s.network); };
  std::vector<serving::MethodResult> results;
  for (std::size_t i = 0; i < s.methods.size(); ++i) {
    serving::SimulatorHook hook;
    if (trace != nullptr) {
      hook = [trace, i, &s](Simulator& sim) {
        attach_trace(sim, *trace, static_cast<int>(i), s.methods[i].name);
      };
    }
    results.push_back(serving::run_serving(config, s.methods[i], qualities[i], hook));
  }
  return results;
}

}  // namespace

int cmd_run(const DataPaths& data, const RunOptions& options) {
  const scenario::Scenario s = load(data, options.scenario, options.overrides, options.seed);
  const std::filesystem::path out = options.out.value_or(std::filesystem::path("results") / "runs" / s.name);
  report::check_results_target(out, options.force);
  const std::vector<serving::MethodQuality> qualities = measure_method_qualities(data, s);
  report::TraceWriter trace;
  const auto results = run_methods(s, qualities, options.trace ? &trace : nullptr);
  report::RunOutputs outputs;
  outputs.scenario_name = s.name;
  outputs.resolved_scenario = s.resolved;
  outputs.results = results;
  outputs.trace = options.trace ? &trace : nullptr;
  if (s.serving.engine) outputs.engine = s.serving.engine->name;
  report::write_results_folder(out, outputs, options.force);
  if (!options.quiet) {
    report::TableOptions table;
    table.wide = options.wide;
    table.percentiles = options.percentiles;
    table.accuracy_columns = {"key_snr_db", "value_snr_db", "attention_kl", "needle_accuracy",
                              "anchor_key_snr_db"};
    if (!options.wide) table.accuracy_columns = {"needle_accuracy"};
    const std::string engine = s.serving.engine ? s.serving.engine->name : "none";
    const std::string heading =
        fmt::format("{}: {} (serving engine: {})", s.name, s.description, engine);
    fmt::print("{}\n\n{}\n", report::wrap_text(heading, report::kTableTextWidth),
               report::format_result_table(report::summarize_methods(results), table));
  }
  fmt::print("results: {}\n", out.string());
  return 0;
}

int cmd_validate(const DataPaths& data, const std::filesystem::path& file,
                 const std::vector<std::string>& overrides) {
  const scenario::Scenario s = load(data, file, overrides, std::nullopt);
  fmt::print("{}: ok ({} methods, {} requests)\n", file.string(), s.methods.size(),
             s.serving.requests.size());
  return 0;
}

}  // namespace lynxsim::app
