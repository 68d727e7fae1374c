#include "sim/app/scenario_check.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

#include "sim/accuracy/accuracy_memory.hpp"
#include "sim/accuracy/kv/head_source.hpp"
#include "sim/accuracy/methods/measured_methods.hpp"
#include "sim/serving/kv_bytes.hpp"
#include "sim/app/memory_limit.hpp"
#include "sim/app/method_quality.hpp"
#include "sim/app/trace_filter.hpp"
#include "sim/core/saturating.hpp"
#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/memory_estimate.hpp"
#include "sim/scenario/resource_estimate.hpp"
#include "sim/store/kv_file.hpp"
#include "sim/store/kv_profile_json.hpp"

namespace lynxsim::app {
namespace {

using scenario::IssueList;

void check_accuracy_methods(const scenario::Scenario& s, IssueList& issues) {
  if (!s.accuracy.enabled) return;
  for (std::size_t i = 0; i < s.methods.size(); ++i) {
    const std::string path = fmt::format("/methods/{}", i);
    if (const auto problem = accuracy::measurable_problem(s.methods[i])) {
      issues.add(problem->field.empty() ? path : scenario::pointer_child(path, problem->field),
                 problem->message + " (the accuracy measurement needs it; \"accuracy\": {\"enabled\": false} skips it)");
    }
  }
}

bool has_cachegen(const scenario::Scenario& s) {
  return std::any_of(s.methods.begin(), s.methods.end(),
                     [](const auto& m) { return m.family == quant::MethodFamily::cachegen; });
}

// The measurements a run makes (precision when accuracy is enabled, CacheGen's sizes) generate
// and code KV of the model's geometry: quant::KvGeometry::validate states what they need (head_dim
// even for RoPE's pairs, num_heads a multiple of num_kv_heads, ...), and the named profile must
// read (sim/store/kv_profile_json.hpp).
void check_measured_kv(const scenario::Scenario& s, IssueList& issues) {
  if (!s.accuracy.enabled && !has_cachegen(s)) return;
  try {
    serving::kv_geometry_of(s.serving.model).validate();
  } catch (const std::invalid_argument& e) {
    issues.add("/model", fmt::format("{} (the accuracy and CacheGen size measurements need it; "
                                     "\"accuracy\": {{\"enabled\": false}} skips the first)", e.what()));
  }
  if (!s.accuracy.profile) return;
  try {
    (void)store::load_kv_profile(s.accuracy.profile->string());
  } catch (const std::exception& e) {
    issues.add("/accuracy/profile", e.what());
  }
}

// The kv_file must serve what the run reads from it: the precision measurement (accuracy enabled:
// the model's geometry, enough tokens) and CacheGen's size measurement (a readable KV file).
void check_kv_file(const scenario::Scenario& s, IssueList& issues) {
  if (!s.accuracy.kv_file) return;
  const bool cachegen = has_cachegen(s);
  try {
    if (s.accuracy.enabled) {
      const accuracy::AccuracyRequest request = precision_request(s);
      const accuracy::HeadSource source(request);
    } else if (cachegen) {
      (void)store::KvFile::open(s.accuracy.kv_file->string());
    }
  } catch (const std::exception& e) {
    issues.add("/accuracy/kv_file", e.what());
  }
}

scenario::Scenario traced_part(const scenario::Scenario& s, const std::vector<std::string>& methods) {
  scenario::Scenario traced = s;
  if (methods.empty()) return traced;
  std::erase_if(traced.methods, [&methods](const quant::MethodSpec& m) {
    return std::find(methods.begin(), methods.end(), m.name) == methods.end();
  });
  return traced;
}

void check_trace(const scenario::Scenario& s, const ScenarioRequest& request, IssueList& issues) {
  if (request.trace_filtered) return;
  const std::int64_t limit = *request.trace_limit;
  const scenario::Scenario traced = traced_part(s, request.trace_methods);
  const std::int64_t events = trace_events_at_least(traced, {});
  if (events <= limit) return;
  const auto requests = static_cast<std::int64_t>(s.serving.requests.size());
  const std::int64_t fitting = std::max<std::int64_t>(1, requests * (limit / 2) / events);
  issues.add("/workload",
             fmt::format("with --trace this run records at least {} trace events (KV flows and "
                         "requests of {} requests x {} traced methods), more than the trace "
                         "limit of {}; trace a window or some requests (--trace-window, "
                         "--trace-requests, --trace-methods), fewer requests (e.g. --set "
                         "workload.trace.max_requests={}) or raise --trace-limit (at most {})",
                         events, requests, traced.methods.size(), limit, fitting,
                         scenario::kMaxTraceEvents));
}

void check_memory(const scenario::Scenario& s, const ScenarioRequest& request, IssueList& issues) {
  const std::int64_t limit = memory_limit_bytes(request.memory_limit);
  const std::int64_t estimate = run_memory_estimate(s, request);
  if (estimate <= limit) return;
  const scenario::ResourceEstimate e = scenario::estimate_resources(s);
  const std::int64_t network = saturating_add(saturating_mul(e.network.hosts, scenario::kMemoryPerNode),
                                              saturating_mul(e.network.links, scenario::kMemoryPerLink));
  const std::int64_t workload = saturating_mul(e.requests, scenario::kMemoryPerRequest);
  issues.add(network > workload ? "/network/topology" : "/workload",
             fmt::format("the run needs {}: {} requests x {} methods, {} hosts, {} links (docs/scenario.md, "
                         "\"Memory\"); use fewer requests (e.g. workload.trace.max_requests or "
                         "workload.synthetic.count), fewer methods or a smaller network, or raise "
                         "--memory-limit", memory_excess(estimate, limit, request.memory_limit),
                         e.requests, s.methods.size(), e.network.hosts, e.network.links));
}

}  // namespace

std::int64_t run_memory_estimate(const scenario::Scenario& s, const ScenarioRequest& request) {
  const scenario::ResourceEstimate e = scenario::estimate_resources(s);
  const std::int64_t trace_events = request.trace_limit.value_or(0);
  std::int64_t bytes = scenario::run_memory_bytes(e, static_cast<std::int64_t>(s.methods.size()), trace_events);
  if (s.accuracy.enabled) bytes = saturating_add(bytes, accuracy::accuracy_memory_bytes(precision_request(s)));
  return bytes;
}

std::int64_t trace_events_at_least(const scenario::Scenario& s,
                                   const std::vector<std::string>& traced_methods) {
  if (!traced_methods.empty()) return trace_events_at_least(traced_part(s, traced_methods), {});
  const scenario::ResourceEstimate e = scenario::estimate_resources(s);
  const auto methods = static_cast<std::int64_t>(s.methods.size());
  const std::int64_t per_request = saturating_mul(3, saturating_mul(e.requests, methods));
  return saturating_add(e.flows_at_least, per_request);
}

scenario::Scenario load_checked_scenario(const DataPaths& data, const ScenarioRequest& request) {
  std::vector<std::string> overrides = request.overrides;
  if (request.seed) overrides.push_back(fmt::format("seed={}", *request.seed));
  scenario::Scenario s = request.text ? scenario::load_scenario_text(*request.text, request.file.string(), overrides, data)
                                      : scenario::load_scenario(request.file, overrides, data);
  IssueList issues;
  check_accuracy_methods(s, issues);
  check_measured_kv(s, issues);
  if (issues.empty()) check_kv_file(s, issues);
  if (request.trace_limit) {
    std::vector<std::string> names;
    for (const quant::MethodSpec& m : s.methods) names.push_back(m.name);
    check_trace_methods(request.trace_methods, names);
    check_trace(s, request, issues);
  }
  if (issues.empty()) check_memory(s, request, issues);
  issues.throw_if_any(s.source_file);
  return s;
}

}  // namespace lynxsim::app
