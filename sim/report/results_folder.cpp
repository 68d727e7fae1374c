#include "sim/report/results_folder.hpp"

#include <array>

#include "sim/report/atomic_write.hpp"
#include "sim/report/requests_csv.hpp"
#include "sim/report/results_page.hpp"
#include "sim/report/summary_json.hpp"

namespace lynxsim::report {

std::string pretty_json(const nlohmann::json& value) { return value.dump(2) + "\n"; }

namespace {

std::string summary_text(const RunOutputs& outputs, const std::vector<MethodSummary>& summaries) {
  return pretty_json(summary_json(outputs.scenario_name, summaries, outputs.engine));
}

}  // namespace

std::string summary_json_text(const RunOutputs& outputs) {
  return summary_text(outputs, summarize_methods(outputs.results, outputs.baselines));
}

void write_results_folder(const std::filesystem::path& out, const RunOutputs& outputs, bool force,
                          bool signal_cleanup) {
  const auto summaries = summarize_methods(outputs.results, outputs.baselines);
  StagedFolder folder(out, force, signal_cleanup);
  folder.write("scenario.resolved.json", pretty_json(outputs.resolved_scenario));
  folder.write("summary.json", summary_text(outputs, summaries));
  folder.write("requests.csv", [&outputs](const ContentSink& sink) { write_requests_csv(outputs.results, sink); });
  if (outputs.trace != nullptr) {
    const TraceWriter::Text text = outputs.trace->text();
    const std::array<std::string_view, 3> parts{text.head, text.events, text.tail};
    folder.write("trace.json", parts);
  }
  folder.write("index.html", results_page({outputs.scenario_name, outputs.engine, outputs.run_table,
                                           &outputs.resolved_scenario, outputs.results, summaries,
                                           outputs.trace != nullptr}));
  folder.commit();
}

}  // namespace lynxsim::report
