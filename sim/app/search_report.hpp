#pragma once
// What a search writes and prints: search.csv (one row per configuration, in configuration order,
// with its place on the Pareto front of $/hour against goodput per GPU), the front as a table, and
// the cheapest configuration per million output tokens.
//
// Columns of search.csv: config, prefill_gpu, prefill_tp, prefill_count, decode_gpu, decode_tp,
// decode_count, gpus, network, scheduling, method, status (found, no_rate: no rate of the range met
// the targets, pruned: cannot fit, with its note), rate_per_s (highest rate meeting the targets),
// failed_at_per_s (lowest rate seen to fail; the threshold lies between), simulations, ttft_s and
// tpot_s (the targets' percentiles at the found rate), attainment, goodput_per_gpu (rate / GPUs),
// usd_per_hour, usd_per_m_tokens (per million output tokens), joules_per_token (GPU, NIC and switch
// energy per output token at the found rate), pareto (1 on the front).

#include <cstddef>
#include <string>
#include <vector>

#include "sim/app/search_point.hpp"
#include "sim/app/search_space.hpp"

namespace lynxsim::app {

struct SearchTable {
  std::vector<SearchConfig> configs;
  std::vector<SearchOutcome> outcomes;
  std::vector<std::size_t> front;  // indices, by ascending cost
};

SearchTable make_search_table(std::vector<SearchConfig> configs, std::vector<SearchOutcome> outcomes);
std::string search_csv(const SearchTable& table);
std::string format_search_front(const SearchTable& table);

}  // namespace lynxsim::app
