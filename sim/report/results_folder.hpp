#pragma once
// The results folder of one run (docs/scenario.md, "Results folder"), written completely or not at all:
//   scenario.resolved.json  the scenario with every default filled in (given by the caller)
//   summary.json            per-method aggregates (summary_json.hpp)
//   requests.csv            one row per request and method (requests_csv.hpp)
//   trace.json              only when a trace is given (trace_writer.hpp)
//   index.html              the results page (results_page.hpp)
//   lynxsim-results.json    the manifest that marks the folder as lynxsim's (results_target.hpp)
// JSON files are pretty-printed with two-space indentation and end with a newline; the bytes
// depend only on the inputs.

#include <filesystem>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/report/method_summary.hpp"
#include "sim/report/trace_writer.hpp"
#include "sim/serving/request_metrics.hpp"

namespace lynxsim::report {

struct RunOutputs {
  std::string scenario_name;
  nlohmann::json resolved_scenario;
  std::span<const serving::MethodResult> results;
  const TraceWriter* trace = nullptr;
  std::vector<std::string> baselines = default_baselines();
  std::string engine;  // the serving engine profile's name (summary.json "engine")
  std::string run_table;  // the table the CLI prints, shown by index.html
};

// Writes the folder through a StagedFolder (atomic_write.hpp): replaces an existing <out> that is
// empty or a lynxsim results folder, and refuses any other (OutputRefused) unless force is set.
// signal_cleanup: as StagedFolder's.
void write_results_folder(const std::filesystem::path& out, const RunOutputs& outputs,
                          bool force = false, bool signal_cleanup = true);

// The text of summary.json as the folder holds it.
std::string summary_json_text(const RunOutputs& outputs);

std::string pretty_json(const nlohmann::json& value);

}  // namespace lynxsim::report
