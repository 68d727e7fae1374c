#include "sim/scenario/resource_estimate.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "sim/core/saturating.hpp"
#include "sim/scenario/input_limits.hpp"

namespace lynxsim::scenario {
namespace {

using serving::InstanceSpec;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return b <= 0 ? a : a / b + (a % b != 0 ? 1 : 0);
}

struct Role {
  std::int64_t instances = 0;
  std::int64_t ranks = 0;
  std::int64_t min_tp = 0;
  std::int64_t max_tp = 0;
};

Role role_of(const InstanceSpec& first, const std::vector<InstanceSpec>& extra) {
  Role r{0, 0, first.tensor_parallel, first.tensor_parallel};
  const auto add = [&r](const InstanceSpec& g) {
    r.instances = saturating_add(r.instances, g.count);
    r.ranks = saturating_add(r.ranks, saturating_mul(g.count, g.tensor_parallel));
    r.min_tp = std::min<std::int64_t>(r.min_tp, g.tensor_parallel);
    r.max_tp = std::max<std::int64_t>(r.max_tp, g.tensor_parallel);
  };
  add(first);
  std::for_each(extra.begin(), extra.end(), add);
  return r;
}

// Rank pairs of one piece and plane, over every pair of a prefill and a decode group.
struct Pairs {
  std::int64_t at_least = 0;
  std::int64_t at_most = 0;
};

Pairs rank_pairs(std::int64_t kv_heads, const Role& prefill, const Role& decode) {
  const std::int64_t n = std::max<std::int64_t>(1, kv_heads);
  return {std::max(decode.min_tp, std::min(prefill.min_tp, n)),
          std::min(saturating_mul(prefill.max_tp, decode.max_tp), std::max(n, decode.max_tp))};
}

struct Passes {
  std::int64_t at_least = 1;
  std::int64_t at_most = 1;
};

Passes prefill_passes(const serving::ServingConfig& c, std::int64_t context) {
  const auto& schedule = c.prefill_schedule;
  if (!schedule.chunked || schedule.max_batch_tokens <= 0) return {};
  const std::int64_t chunks = std::max<std::int64_t>(1, ceil_div(context, schedule.max_batch_tokens));
  return {c.prefix_cache.enabled ? 1 : chunks, chunks + 1};
}

struct Flows {
  std::int64_t at_least = 0;
  std::int64_t at_most = 0;
  std::int64_t layer_passes = 0;
};

// KV (and store-load) flows of one method over the whole workload.
Flows method_flows(const Scenario& s, const quant::MethodSpec& m, const Pairs& pairs,
                   std::int64_t store_ranks) {
  const auto& c = s.serving;
  const std::int64_t layers = std::max(1, c.model.num_layers);
  const bool layerwise = c.streaming == serving::StreamingMode::layerwise;
  const std::int64_t pieces_per_pass = ceil_div(layers, layerwise ? std::max(1, c.layers_per_flow) : layers);
  const std::int64_t planes = std::max(1, m.num_planes());
  const bool cachegen = m.family == quant::MethodFamily::cachegen;
  const bool store = c.prefix_cache.enabled || c.context_loading.enabled;
  Flows f;
  for (const auto& r : c.requests) {
    const Passes passes = prefill_passes(c, r.context_tokens);
    const std::int64_t chunks = ceil_div(std::max(1, r.context_tokens), std::max(1, m.cachegen.chunk_tokens));
    std::int64_t low = 0;
    std::int64_t high = 0;
    if (cachegen) {
      low = saturating_mul(chunks, pairs.at_least);
      high = saturating_mul(chunks, pairs.at_most);
    } else {
      const std::int64_t per_pass = saturating_mul(pieces_per_pass, planes);
      low = saturating_mul(saturating_mul(per_pass, passes.at_least), pairs.at_least);
      high = saturating_mul(saturating_mul(per_pass, passes.at_most), pairs.at_most);
    }
    if (store) {
      low = 0;
      high = saturating_add(high, saturating_mul(saturating_add(planes, chunks), store_ranks));
    }
    f.at_least = saturating_add(f.at_least, low);
    f.at_most = saturating_add(f.at_most, high);
    if (!c.context_loading.enabled) {
      f.layer_passes = saturating_add(f.layer_passes, saturating_mul(layers, passes.at_least));
    }
  }
  return f;
}

// Raw picoseconds with saturation: the times are the user's, and their sum may not fit a Time.
std::int64_t background_flows(const net::BackgroundSpec& b) {
  if (!b.on_time) return 1;
  const std::int64_t period = saturating_add(std::max<std::int64_t>(0, b.on_time->ps()),
                                             std::max<std::int64_t>(0, b.off_time.ps()));
  std::int64_t span = 0;
  if (__builtin_sub_overflow(b.stop_at.ps(), b.start_at.ps(), &span)) span = kSaturatedCount;
  return period <= 0 ? kSaturatedCount : ceil_div(std::max<std::int64_t>(0, span), period);
}

}  // namespace

ResourceEstimate estimate_resources(const Scenario& s) {
  ResourceEstimate e;
  e.network = net::topology_size(s.network.topology);
  const Role prefill = role_of(s.serving.prefill, s.serving.extra_prefill);
  const Role decode = role_of(s.serving.decode, s.serving.extra_decode);
  e.prefill_instances = prefill.instances;
  e.decode_instances = decode.instances;
  e.prefill_ranks = prefill.ranks;
  e.decode_ranks = decode.ranks;
  e.requests = static_cast<std::int64_t>(s.serving.requests.size());
  const Pairs pairs = rank_pairs(s.serving.model.num_kv_heads, prefill, decode);
  std::int64_t background = 0;
  for (const auto& b : s.network.background) background = saturating_add(background, background_flows(b));
  for (const auto& m : s.methods) {
    const Flows f = method_flows(s, m, pairs, saturating_add(prefill.max_tp, decode.max_tp));
    e.flows_at_least = saturating_add(e.flows_at_least, f.at_least);
    e.flows_at_most = saturating_add(saturating_add(e.flows_at_most, f.at_most), background);
    e.prefill_layer_passes = saturating_add(e.prefill_layer_passes, f.layer_passes);
  }
  return e;
}

void check_resource_limits(const Scenario& s, IssueList& issues) {
  const ResourceEstimate e = estimate_resources(s);
  const auto check_role = [&issues](const char* path, std::int64_t instances, std::int64_t ranks) {
    if (instances > kMaxInstancesPerRole) {
      issues.add(path, fmt::format("{} instances over all groups, more than the {} a role may have",
                                   instances, kMaxInstancesPerRole));
    }
    if (ranks > kMaxRanksPerRole) {
      issues.add(path, fmt::format("{} GPUs (count x tp over all groups), more than the {} a role "
                                   "may have", ranks, kMaxRanksPerRole));
    }
  };
  check_role("/prefill", e.prefill_instances, e.prefill_ranks);
  check_role("/decode", e.decode_instances, e.decode_ranks);
  for (std::size_t i = 0; i < s.network.background.size(); ++i) {
    const std::int64_t n = background_flows(s.network.background[i]);
    if (n > kMaxFlows) {
      issues.add(fmt::format("/network/background/{}", i),
                 fmt::format("{} flows (the run length over on_time + off_time), more than the {} "
                             "a run may create", n, kMaxFlows));
      return;
    }
  }
  if (e.flows_at_most > kMaxFlows) {
    issues.add("/workload",
               fmt::format("the run may create up to {} flows ({} requests x {} methods x pieces x "
                           "planes x rank pairs), more than the {} a run may create; use fewer "
                           "requests, a larger serving.layers_per_flow or a larger "
                           "prefill_batch_tokens", e.flows_at_most, e.requests, s.methods.size(),
                           kMaxFlows));
  }
}

}  // namespace lynxsim::scenario
