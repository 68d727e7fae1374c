#pragma once
// A search file (`lynxsim search FILE`; keys: search_fields.cpp, docs/search.md): the base
// scenario, the choices whose combinations are the configurations, the targets a request rate must
// meet and the rate range of the bisection, and the price table (data/prices.json unless the file
// names another, with `gpu_prices` overriding rows).
//
// Every problem of the file (and of its price table) is thrown at once as a ScenarioError naming
// the file and each JSON path (exit 2). The choices are checked here for their form (types, bounds,
// `pd_ratio` text, `gpu_budget` not with counts); names (GPUs, presets, methods) are checked when
// the configurations are loaded as scenarios, against the base scenario with the search file's
// path in the message.

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/plan/deployment_cost.hpp"
#include "sim/plan/rate_bisection.hpp"
#include "sim/plan/slo_targets.hpp"
#include "sim/scenario/data_paths.hpp"

namespace lynxsim::scenario {

struct SearchChoices {
  std::vector<std::string> prefill_gpu;
  std::vector<std::string> decode_gpu;
  std::vector<int> prefill_tp;
  std::vector<int> decode_tp;
  std::vector<int> prefill_count;
  std::vector<int> decode_count;
  std::optional<int> gpu_budget;
  std::vector<std::pair<int, int>> pd_ratio;  // (P, D)
  std::vector<nlohmann::json> network;        // preset names or network objects
  std::vector<std::string> link_rate;         // rates as written ("25Gbps")
  std::vector<nlohmann::json> method;         // method names or objects
  std::vector<std::string> scheduling;        // plane scheduling policies
};

struct SearchSpec {
  std::string name;
  std::string description;
  std::string source_file;
  std::filesystem::path base;  // resolved against the search file's folder
  std::vector<std::string> set;
  SearchChoices choices;
  plan::SloTargets targets;
  plan::RateRange rate;
  plan::PriceTable prices;
  nlohmann::json document;  // the search file as read (it names the results)
};

SearchSpec load_search(const std::filesystem::path& file, const DataPaths& data);

}  // namespace lynxsim::scenario
