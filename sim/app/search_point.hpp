#pragma once
// One configuration of a search, evaluated: pruned when a role cannot hold the model and the
// largest request's KV (plan/memory_fit.hpp), else the highest request rate meeting the targets
// (plan/rate_bisection.hpp; each probe is a full run of the configuration's scenario at that rate,
// judged by plan/slo_targets.hpp), and at that rate its cost (plan/deployment_cost.hpp).
//
// A probe whose requests could not be served (serving::UnservedRequests: the network cannot carry
// the load within the clock) fails the targets. goodput per GPU = found rate / GPUs; $ per million
// output tokens at the found rate and the mean output length of the run at that rate.

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "sim/app/data_paths.hpp"
#include "sim/app/search_space.hpp"
#include "sim/plan/deployment_cost.hpp"
#include "sim/plan/energy.hpp"
#include "sim/plan/rate_bisection.hpp"
#include "sim/plan/slo_targets.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/search_file.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::app {

enum class PointStatus { found, no_rate, pruned };
// "found", "no_rate", "pruned": the status column of search.csv and the journal.
const char* status_name(PointStatus status);

struct SearchOutcome {
  PointStatus status = PointStatus::no_rate;
  std::string note;  // why pruned
  plan::RateSearchResult rate;
  plan::SloOutcome slo;  // at the found rate
  double mean_output_tokens = 0.0;
  int gpus = 0;
  double usd_per_hour = 0.0;
  double goodput_per_gpu = 0.0;  // requests per second per GPU
  double usd_per_m_tokens = 0.0;
  double joules_per_token = 0.0;
};

// What every point of one search shares. Method qualities (accuracy measurements, cached on disk)
// are measured once per method, under the mutex.
struct SearchContext {
  const scenario::SearchSpec* search = nullptr;
  const scenario::Scenario* base = nullptr;
  DataPaths data;
  plan::EnergyTable energy;
  std::mutex quality_lock;
  std::vector<std::pair<std::string, serving::MethodQuality>> qualities;
};

// Why the configuration cannot fit, or nullopt.
std::optional<std::string> prune_reason(const SearchConfig& config, SearchContext& context);

// Loads the configuration at the rate range's min (a bad choice is an input error of the search
// file naming the configuration); returns the loader's /decode capacity message when the
// configuration does not fit the decode HBM, else nullopt.
std::optional<std::string> check_config(const SearchConfig& config, SearchContext& context);

SearchOutcome evaluate_point(const SearchConfig& config, SearchContext& context);

}  // namespace lynxsim::app
