#pragma once
// The configurations of a search (scenario/search_file.hpp): every combination of its choices, as
// `--set` overrides of the base scenario (after the search file's own `set`), in a fixed order
// (prefill GPU, decode GPU, prefill TP, decode TP, instance counts, network, scheduling, method;
// the last varies fastest), so configuration numbers are stable across runs.
//
// Instance counts: the choices' counts, or with gpu_budget B and a ratio P:D the largest k with
// k * (P * prefill_tp + D * decode_tp) <= B, giving k * P prefill and k * D decode instances (a
// ratio with k = 0 is no configuration). A choice not given keeps the base's value; without a
// method choice every method of the base is its own configuration.
// A network preset name is expanded here (network_preset.hpp), problems reported at its
// /choices/network/<i> in the search file.

#include <string>
#include <vector>

#include "sim/app/data_paths.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/search_file.hpp"

namespace lynxsim::app {

struct RoleChoice {
  std::string gpu;
  int tensor_parallel = 1;
  int count = 1;
};

struct SearchConfig {
  RoleChoice prefill;
  RoleChoice decode;
  std::string network;     // the network choice as written ("25Gbps", a preset name), or "base"
  std::string scheduling;  // the policy, or "base"
  std::string method;
  std::vector<std::string> overrides;  // without the rate
  std::string key() const;             // one line naming every choice (the journal's key)
  int gpus() const { return prefill.tensor_parallel * prefill.count + decode.tensor_parallel * decode.count; }
};

std::vector<SearchConfig> search_configs(const scenario::SearchSpec& search, const scenario::Scenario& base,
                                         const DataPaths& data);

// The override that sets the base workload's request rate.
std::string rate_override(double requests_per_s);

}  // namespace lynxsim::app
