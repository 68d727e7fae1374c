#include "sim/serving/capacity_check.hpp"

#include <fmt/format.h>

#include "sim/compute/timing_model.hpp"

namespace lynxsim::serving {
namespace {

std::string size(double bytes) { return fmt::format("{:.2f} GiB", bytes / 1073741824.0); }

// The request needing the most KV memory: (index, tokens).
std::pair<std::size_t, std::int64_t> largest_request(const ServingConfig& config, std::int64_t drafts) {
  std::pair<std::size_t, std::int64_t> largest{0, 0};
  for (std::size_t i = 0; i < config.requests.size(); ++i) {
    const auto& r = config.requests[i];
    const std::int64_t tokens = std::int64_t{r.context_tokens} + r.output_tokens + drafts;
    if (tokens > largest.second) largest = {i, tokens};
  }
  return largest;
}

std::vector<InstanceSpec> decode_groups(const ServingConfig& config) {
  std::vector<InstanceSpec> groups{config.decode};
  groups.insert(groups.end(), config.extra_decode.begin(), config.extra_decode.end());
  return groups;
}

}  // namespace

std::vector<std::string> staging_capacity_problems(const ServingConfig& config) {
  std::vector<std::string> problems;
  const std::int64_t capacity = config.kv_admission.staging_capacity.value;
  if (config.kv_admission.policy != KvAdmissionPolicy::staging || capacity == 0) return problems;
  std::size_t longest = 0;
  for (std::size_t i = 0; i < config.requests.size(); ++i) {
    if (config.requests[i].context_tokens > config.requests[longest].context_tokens) longest = i;
  }
  if (config.requests.empty()) return problems;
  const std::vector<InstanceSpec> groups = decode_groups(config);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    TimingModel timing(config.model, groups[g].gpu, groups[g].tensor_parallel);
    timing.set_parallel_layout(groups[g].parallel);
    const int context = config.requests[longest].context_tokens;
    const double kv = static_cast<double>(timing.kv_bytes_per_rank(context).value) * timing.attention_tp();
    if (kv > static_cast<double>(capacity)) {
      problems.push_back(fmt::format("decode group {}: request {} needs {} of staging buffers for its "
                                     "{} prompt tokens, more than the staging capacity ({})",
                                     g, longest, size(kv), context, size(static_cast<double>(capacity))));
    }
  }
  return problems;
}

std::vector<std::string> decode_capacity_problems(const ServingConfig& config, bool any_speculative) {
  std::vector<std::string> problems;
  const std::vector<InstanceSpec> groups = decode_groups(config);
  const std::int64_t drafts = any_speculative ? config.speculation.max_draft_tokens : 0;
  const auto [index, tokens] = largest_request(config, drafts);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    TimingModel timing(config.model, groups[g].gpu, groups[g].tensor_parallel);
    timing.set_parallel_layout(groups[g].parallel);
    const double usable = static_cast<double>(timing.hardware().hbm_capacity.value) *
                          config.decode_memory.usable_fraction;
    const double weights = static_cast<double>(timing.weight_bytes_per_rank().value);
    const double kv = static_cast<double>(timing.kv_bytes_per_rank(tokens).value);
    if (weights >= usable) {
      problems.push_back(fmt::format("decode group {} ({} at tp {}): the weights ({} per rank) exceed "
                                     "the usable HBM ({})",
                                     g, groups[g].gpu.name, groups[g].tensor_parallel, size(weights),
                                     size(usable)));
    } else if (!config.requests.empty() && weights + kv > usable) {
      problems.push_back(fmt::format("decode group {} ({} at tp {}): request {} needs {} of KV per "
                                     "rank for {} tokens, more than the {} left after the weights",
                                     g, groups[g].gpu.name, groups[g].tensor_parallel, index, size(kv),
                                     tokens, size(usable - weights)));
    }
  }
  return problems;
}

}  // namespace lynxsim::serving
