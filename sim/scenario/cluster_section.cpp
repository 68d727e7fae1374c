// The cluster sections of a scenario: instance groups ("prefill", "decode") and the prefix cache;
// their keys are the "instance-group" and "prefix-cache" tables of scenario_fields.cpp.
// A role is one group or a non-empty array of groups (a heterogeneous cluster: instances are
// numbered across groups in order, so the first group's instances come first in the placement
// pool). The store host must name a host of the network's topology, and an enabled cache needs a
// workload whose requests carry prefix block ids (a Mooncake trace with keep_hash_ids), since a
// cache without them could never hit.

#include <algorithm>
#include <stdexcept>
#include <fmt/format.h>

#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/scenario_sections.hpp"

namespace lynxsim::scenario {
namespace {

using nlohmann::json;

serving::InstanceSpec read_group(const json& value, const std::string& path, SectionContext& ctx,
                                 json& resolved) {
  const FieldSection& F = field_section("instance-group");
  serving::InstanceSpec instance;
  ObjectReader r(value, path, ctx.issues);
  if (const auto* gpu = r.get(F["gpu"].key, true)) {
    json gpu_resolved;
    instance.gpu = read_gpu(*gpu, r.child("gpu"), ctx, gpu_resolved);
    resolved["gpu"] = gpu_resolved;
  }
  r.resolve_into(resolved);
  instance.tensor_parallel = r.count(F["tp"]).value_or(1);
  instance.count = r.count(F["count"]).value_or(1);
  instance.parallel.attention_dp = r.count(F["attention_dp"]).value_or(0);
  instance.parallel.expert_parallel = r.count(F["expert_parallel"]).value_or(0);
  instance.parallel.load_imbalance = r.number(F["expert_load_imbalance"]).value_or(kEplbLoadImbalance);
  instance.parallel.node_gpus = r.count(F["node_gpus"]).value_or(kDefaultNodeGpus);
  instance.all_to_all_flows =
      r.choice<bool>(F["all_to_all"], {{"flows", true}, {"closed-form", false}});
  r.finish();
  return instance;
}

std::string host_list(const net::Topology& topology) {
  constexpr std::size_t kShown = 6;
  std::vector<std::string> names;
  for (std::size_t h = 0; h < std::min(topology.num_hosts(), kShown); ++h) {
    names.push_back(topology.host_name(static_cast<net::HostId>(h)));
  }
  const std::string more = topology.num_hosts() > kShown ? ", ..." : "";
  return fmt::format("{}{}", fmt::join(names, ", "), more);
}

// The model-dependent defaults of attention_dp and expert_parallel (0: absent), then the layout check.
void resolve_layout(const ModelSpec& model, bool prefill, serving::InstanceSpec& instance,
                    const std::string& path, IssueList& issues, json& resolved) {
  ExpertParallelLayout& layout = instance.parallel;
  const ExpertParallelLayout defaults = default_layout(model, instance.tensor_parallel, prefill);
  if (layout.attention_dp == 0) layout.attention_dp = defaults.attention_dp;
  if (layout.expert_parallel == 0) layout.expert_parallel = defaults.expert_parallel;
  resolved["attention_dp"] = layout.attention_dp;
  resolved["expert_parallel"] = layout.expert_parallel;
  try {
    check_layout(layout, instance.tensor_parallel, model.moe.has_value());
  } catch (const std::invalid_argument& e) {
    issues.add(path, e.what());
  }
  if (const std::string conflict = precision_conflict(model.gemm_precision, instance.gpu); !conflict.empty()) {
    issues.add(pointer_child(path, "gpu"), "the model card's " + conflict);
  }
}

}  // namespace

void resolve_layouts(const ModelSpec& model, bool prefill, InstanceGroups& groups, const std::string& path,
                     IssueList& issues, json& resolved) {
  if (!resolved.is_array()) {
    resolve_layout(model, prefill, groups.first, path, issues, resolved);
    return;
  }
  for (std::size_t i = 0; i < resolved.size() && i <= groups.extra.size(); ++i) {
    auto& group = i == 0 ? groups.first : groups.extra[i - 1];
    resolve_layout(model, prefill, group, pointer_child(path, std::to_string(i)), issues, resolved[i]);
  }
}

InstanceGroups read_instances(const json& value, const std::string& path, SectionContext& ctx,
                              json& resolved) {
  InstanceGroups groups;
  if (!value.is_array()) {
    groups.first = read_group(value, path, ctx, resolved);
    return groups;
  }
  if (value.empty()) {
    ctx.issues.add(path, "expected an instance group object or a non-empty array of them");
    return groups;
  }
  resolved = json::array();
  for (std::size_t i = 0; i < value.size(); ++i) {
    json group_resolved = json::object();
    const auto group = read_group(value[i], pointer_child(path, std::to_string(i)), ctx,
                                  group_resolved);
    if (i == 0) groups.first = group;
    else groups.extra.push_back(group);
    resolved.push_back(group_resolved);
  }
  return groups;
}

void read_prefix_cache(const json* value, const std::string& path, IssueList& issues,
                       serving::PrefixCacheSpec& spec, json& resolved) {
  static const json empty_object = json::object();
  const FieldSection& F = field_section("prefix-cache");
  resolved = json::object();
  ObjectReader r(value != nullptr ? *value : empty_object, path, issues);
  r.resolve_into(resolved);
  spec.enabled = r.boolean(F["enabled"]).value_or(value != nullptr);
  resolved["enabled"] = spec.enabled;
  Field store_host = F["store_host"];
  store_host.required = spec.enabled;
  const auto host = r.string(store_host);
  spec.store_host = host.value_or("");
  spec.capacity = r.bytes(F["capacity"]).value_or(Bytes{0});
  spec.block_tokens = r.count(F["block_tokens"]).value_or(spec.block_tokens);
  spec.target = r.choice<serving::LoadTarget>(
      F["target"], {{"prefill", serving::LoadTarget::prefill}, {"decode", serving::LoadTarget::decode}});
  if (host && host->empty()) issues.add(r.child("store_host"), "must not be empty");
  r.finish();
}

bool has_cachegen_method(const Scenario& s) {
  return std::any_of(s.methods.begin(), s.methods.end(), [](const quant::MethodSpec& m) {
    return m.family == quant::MethodFamily::cachegen;
  });
}

void check_store_host(const Scenario& s, const std::string& host, const std::string& path,
                      IssueList& issues) {
  try {
    const net::Topology topology = net::build_topology(s.network.topology);
    try {
      topology.host_by_name(host);
    } catch (const std::invalid_argument&) {
      issues.add(path, fmt::format("unknown host \"{}\" (hosts of the network: {})", host,
                                   host_list(topology)));
    }
  } catch (const std::invalid_argument& e) {
    issues.add("/network", e.what());
  }
}

void check_prefix_cache(const Scenario& s, IssueList& issues) {
  const serving::PrefixCacheSpec& cache = s.serving.prefix_cache;
  if (!cache.enabled) return;
  check_store_host(s, cache.store_host, "/prefix_cache/store_host", issues);
  if (has_cachegen_method(s) && cache.target == serving::LoadTarget::decode) {
    issues.add("/prefix_cache/target", "cachegen loads cached prefixes to \"prefill\" only");
  }
  const bool any_ids = std::any_of(s.serving.requests.begin(), s.serving.requests.end(),
                                   [](const serving::RequestSpec& r) { return !r.hash_ids.empty(); });
  if (!any_ids) {
    issues.add("/prefix_cache/enabled",
               "the workload has no prefix block ids (hash_ids); a prefix cache needs a "
               "\"mooncake\" trace with keep_hash_ids");
  }
}

}  // namespace lynxsim::scenario
