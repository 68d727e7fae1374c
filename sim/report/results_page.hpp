#pragma once
// index.html of a results folder (results_folder.hpp): one run at a glance, in a single file that
// opens offline (inline CSS and SVG, no scripts, fonts or other files; svg_chart.hpp).
//
// Sections: the run table the CLI prints; the summary per method (requests, TTFT_spec,
// TTFT_commit, TPOT and E2E mean and percentiles, bytes, largest link utilisation); the empirical
// CDFs of TTFT_spec of every method, of TTFT_commit of the speculative ones and of TPOT, each
// drawn through at most kCdfPoints quantiles (statistics.hpp's interpolation), so a large run
// gives a page of bounded size; bytes per plane as stacked bars; link utilisation, mean and peak of
// the kPageLinks busiest links (by mean) per method and their utilisation over time
// (LinkUtilisation::series); the resolved scenario; and, when the run wrote one, a link to
// trace.json with how to open it in Perfetto.
//
// Every number the page shows from summary.json sits in an element carrying data-key (the JSON
// pointer of the number in summary.json) and data-value (the number exactly as summary.json
// writes it) and data-unit (how the shown text rounds it: "count", "ms" with three decimals, "%"
// with one, "bytes" in binary units), so a test can compare the page with summary.json.
// The page's bytes depend only on its inputs.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/method_summary.hpp"
#include "sim/serving/request_metrics.hpp"

namespace lynxsim::report {

inline constexpr std::size_t kCdfPoints = 200;
inline constexpr std::size_t kPageLinks = 4;

struct PageInputs {
  std::string scenario_name;
  std::string engine;
  std::string run_table;  // the table the CLI prints (result_table.hpp)
  const nlohmann::json* resolved_scenario = nullptr;
  std::span<const serving::MethodResult> results;
  std::span<const MethodSummary> summaries;
  bool with_trace = false;
};

std::string results_page(const PageInputs& inputs);

// The points of the empirical CDF of `sample` (any order): (value x scale, fraction at or below).
std::vector<std::pair<double, double>> cdf_points(std::vector<double> sample, double scale);

}  // namespace lynxsim::report
