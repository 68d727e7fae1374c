#pragma once
// The section parsers of a scenario file, shared by parse_scenario. Each reads one section at its
// JSON pointer, records problems in the IssueList, returns the typed value (neutral when invalid)
// and writes the section's resolved JSON (every default filled in) to `resolved`.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"
#include "sim/net/network_spec.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serving/serving_config.hpp"
#include "sim/quant/method_spec.hpp"

namespace lynxsim::scenario {

struct SectionContext {
  IssueList& issues;
  const ParseOptions& options;
};

// The instance groups of one role: the first group and any further ones.
struct InstanceGroups {
  serving::InstanceSpec first;
  std::vector<serving::InstanceSpec> extra;
};

// The attention_dp and expert_parallel defaults that depend on the model and role, written into the
// resolved group(s); an impossible layout is an issue at the group's path.
void resolve_layouts(const ModelSpec& model, bool prefill, InstanceGroups& groups, const std::string& path,
                     IssueList& issues, nlohmann::json& resolved);

ModelSpec read_model(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
                     nlohmann::json& resolved);
HardwareSpec read_gpu(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
                      nlohmann::json& resolved);
// serving.engine: a preset of configs/engines/ or an inline profile.
EngineSpec read_engine(const nlohmann::json& value, const std::string& path, SectionContext& ctx,
                       nlohmann::json& resolved);
std::vector<serving::RequestSpec> read_workload(const nlohmann::json& value,
                                                const std::string& path, SectionContext& ctx,
                                                std::uint64_t seed, nlohmann::json& resolved,
                                                std::optional<serving::ClientSpec>& client);
std::vector<quant::MethodSpec> read_methods(const nlohmann::json& value,
                                                  const std::string& path, IssueList& issues,
                                                  nlohmann::json& resolved);
void read_serving(const nlohmann::json& value, const std::string& path, IssueList& issues,
                  serving::ServingConfig& config, nlohmann::json& resolved);
void read_speculation(const nlohmann::json& value, const std::string& path, IssueList& issues,
                      serving::SpeculationSpec& spec, nlohmann::json& resolved);
void read_slo(const nlohmann::json& value, const std::string& path, IssueList& issues,
              serving::ServingSlo& slo, nlohmann::json& resolved);
InstanceGroups read_instances(const nlohmann::json& value, const std::string& path,
                              SectionContext& ctx, nlohmann::json& resolved);
// `value` is nullptr when the scenario has no prefix_cache section (the cache is then disabled).
void read_prefix_cache(const nlohmann::json* value, const std::string& path, IssueList& issues,
                       serving::PrefixCacheSpec& spec, nlohmann::json& resolved);
// Checks that need the whole scenario: the store host exists, the workload has prefix block ids.
void check_prefix_cache(const Scenario& scenario, IssueList& issues);
// Whether any method of the scenario is a cachegen method.
bool has_cachegen_method(const Scenario& scenario);
// Records an issue at `path` when `host` is not a host of the scenario's network.
void check_store_host(const Scenario& scenario, const std::string& host, const std::string& path,
                      IssueList& issues);
// `value` is nullptr when the scenario has no context_loading section (loading is then off).
void read_context_loading(const nlohmann::json* value, const std::string& path, IssueList& issues,
                          serving::ContextLoadingSpec& spec, nlohmann::json& resolved);
void check_context_loading(const Scenario& scenario, IssueList& issues);
// Every route the run needs exists in an explicit graph (route_section.cpp).
void check_routes(const Scenario& scenario, IssueList& issues);
// Every link carries the run's largest flow within kMaxTransferTime (transfer_bound.cpp).
void check_transfer_time(const Scenario& scenario, IssueList& issues);
net::NetworkSpec read_network(const nlohmann::json& value, const std::string& path,
                              SectionContext& ctx, nlohmann::json& resolved);

}  // namespace lynxsim::scenario
