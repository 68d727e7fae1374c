#pragma once
// The decode-memory checks a run would fail on, made before it starts, so that `lynxsim validate`
// and a run reject the same scenarios (decode_instance.hpp has the memory model):
//   weights_per_rank < hbm_capacity * usable_fraction                    for every decode group
//   weights_per_rank + kv_per_token_per_rank * (context + output + drafts) <= that capacity
// for the longest request, where drafts = max_draft_tokens when any method speculates. Each
// problem is one line naming the decode group and, for a request, its index and token counts.
// With "staging" KV admission and a bounded staging_capacity, the longest prompt's KV on one
// decode rank's GPUs (kv_admission.hpp) must fit the staging buffers of every decode group, or its
// transfer could never start.

#include <string>
#include <vector>

#include "sim/serving/serving_config.hpp"

namespace lynxsim::serving {

std::vector<std::string> decode_capacity_problems(const ServingConfig& config, bool any_speculative);
std::vector<std::string> staging_capacity_problems(const ServingConfig& config);

}  // namespace lynxsim::serving
