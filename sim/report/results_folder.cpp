#include "sim/report/results_folder.hpp"

#include "sim/report/atomic_write.hpp"
#include "sim/report/requests_csv.hpp"
#include "sim/report/summary_json.hpp"

namespace lynxsim::report {

std::string pretty_json(const nlohmann::json& value) { return value.dump(2) + "\n"; }

void write_results_folder(const std::filesystem::path& out, const RunOutputs& outputs, bool force) {
  const auto summaries = summarize_methods(outputs.results, outputs.baselines);
  StagedFolder folder(out, force);
  folder.write("scenario.resolved.json", pretty_json(outputs.resolved_scenario));
  folder.write("summary.json",
               pretty_json(summary_json(outputs.scenario_name, summaries, outputs.engine)));
  folder.write("requests.csv", requests_csv(outputs.results));
  if (outputs.trace != nullptr) folder.write("trace.json", outputs.trace->to_string());
  folder.commit();
}

}  // namespace lynxsim::report
