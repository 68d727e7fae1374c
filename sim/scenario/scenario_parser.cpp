// parse_scenario: the top level of a scenario file and its small sections.
//   schema_version (required, 1), name (required; it names the default results folder, so it is
//   1-100 characters of [A-Za-z0-9._+-] starting with a letter or digit), description, seed,
//   model, prefill, decode (instance groups and prefix_cache in cluster_section.cpp), network,
//   context_loading (context_loading_section.cpp),
//   workload, methods (required), serving, speculation, slo (serving_section.cpp),
//   accuracy {enabled: true, kv_file, profile, seed (default: the scenario seed)}.
// A request whose context exceeds the model's max_context is an error.

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/resource_estimate.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/scenario_sections.hpp"
#include "sim/serving/capacity_check.hpp"

namespace lynxsim::scenario {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr std::size_t kMaxScenarioNameLength = 100;

const json& section(ObjectReader& top, std::string_view key, bool required) {
  static const json empty_object = json::object();
  const json* v = top.get(key, required);
  return v != nullptr ? *v : empty_object;
}

// A profile is a file of configs/kv_profiles/ named by its stem; its fields are checked where it
// is read (sim/store/kv_profile_json.hpp).
void check_kv_profile(const std::string& name, const DataPaths& data, const std::string& path, IssueList& issues) {
  std::error_code ec;
  const bool plain = !name.empty() && name.find('/') == std::string::npos && name.front() != '.';
  if (plain && fs::is_regular_file(data.kv_profiles() / (name + ".json"), ec)) return;
  std::vector<std::string> known;
  for (fs::directory_iterator it(data.kv_profiles(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".json") known.push_back(it->path().stem().string());
  }
  std::sort(known.begin(), known.end());
  issues.add(path, fmt::format("unknown synthetic-KV profile \"{}\" (profiles of {}: {})", name,
                               data.kv_profiles().string(), fmt::join(known, ", ")));
}

AccuracyOptions read_accuracy(const json& value, const std::string& path, SectionContext& ctx,
                              std::uint64_t seed, json& resolved) {
  const FieldSection& F = field_section("accuracy");
  AccuracyOptions a;
  resolved = json::object();
  ObjectReader r(value, path, ctx.issues);
  r.resolve_into(resolved);
  a.enabled = r.boolean(F["enabled"]).value_or(true);
  a.seed = static_cast<std::uint64_t>(r.integer(F["seed"]).value_or(static_cast<std::int64_t>(seed)));
  resolved["seed"] = a.seed;
  if (const auto kv = r.string(F["kv_file"])) {
    a.kv_file = ctx.options.base_dir / *kv;
    std::error_code ec;
    if (!std::filesystem::exists(*a.kv_file, ec)) {
      ctx.issues.add(r.child("kv_file"), fmt::format("no such file or folder: {}", a.kv_file->string()));
    }
  }
  if (const auto profile = r.string(F["profile"])) {
    check_kv_profile(*profile, ctx.options.data, r.child("profile"), ctx.issues);
    a.profile = ctx.options.data.kv_profiles() / (*profile + ".json");
  }
  r.finish();
  return a;
}

void check_contexts(const Scenario& s, IssueList& issues) {
  const int max_context = s.serving.model.max_context;
  const bool listed = s.resolved.at("workload").contains("requests");
  for (std::size_t i = 0; i < s.serving.requests.size(); ++i) {
    const int context = s.serving.requests[i].context_tokens;
    if (max_context <= 0 || context <= max_context) continue;
    const std::string message = fmt::format("context {} exceeds the max_context {} of model \"{}\"",
                                            context, max_context, s.serving.model.name);
    if (listed) {
      issues.add(fmt::format("/workload/requests/{}/context", i), message);
    } else {
      issues.add("/workload", fmt::format("request {}: {}", i, message));
      return;
    }
  }
}

// Limits every workload form shares (input_limits.hpp): how many requests, how late the last one.
void check_workload_limits(const Scenario& s, IssueList& issues) {
  const auto& requests = s.serving.requests;
  if (static_cast<std::int64_t>(requests.size()) > kMaxRequests) {
    issues.add("/workload", fmt::format("{} requests, more than the {} a run may have",
                                        requests.size(), kMaxRequests));
  }
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const auto& r = requests[i];
    if (r.arrival_at > kMaxArrival) {
      issues.add("/workload", fmt::format("request {} arrives at {}, later than the {} a run may span",
                                          i, time_text(r.arrival_at), time_text(kMaxArrival)));
      return;
    }
    if (r.context_tokens > kMaxTokensPerRequest || r.output_tokens > kMaxTokensPerRequest) {
      issues.add("/workload", fmt::format("request {} has more than {} context or output tokens", i,
                                          kMaxTokensPerRequest));
      return;
    }
  }
}

void check_decode_capacity(const Scenario& s, IssueList& issues) {
  const bool speculative = std::any_of(s.methods.begin(), s.methods.end(),
                                       [](const quant::MethodSpec& m) { return m.speculative(); });
  for (const auto& problem : serving::decode_capacity_problems(s.serving, speculative)) {
    issues.add("/decode", problem);
  }
  for (const auto& problem : serving::staging_capacity_problems(s.serving)) {
    issues.add("/serving/staging_capacity", problem);
  }
  if (s.serving.kv_transfer.timeout) {
    for (const quant::MethodSpec& m : s.methods) {
      if (m.family != quant::MethodFamily::cachegen) continue;
      issues.add("/serving/kv_transfer_timeout",
                 fmt::format("not for cachegen (method '{}'): its chunk pipeline adapts to the "
                             "bandwidth it measures and has no restart point", m.name));
      return;
    }
  }
  if (s.serving.kv_transfer.fallback == serving::KvTransferFallback::commit_on_anchor) {
    for (const quant::MethodSpec& m : s.methods) {
      if (m.speculative()) continue;
      issues.add("/serving/kv_transfer_fallback",
                 fmt::format("\"commit_on_anchor\" needs a speculative method (one with an anchor); "
                             "method '{}' is not", m.name));
      return;
    }
  }
}

void read_header(ObjectReader& top, Scenario& s) {
  const FieldSection& F = field_section("scenario");
  top.integer(F["schema_version"]);
  s.name = top.string(F["name"]).value_or("");
  if (top.get("name") != nullptr && !is_safe_scenario_name(s.name)) {
    top.issues().add(top.child("name"),
                     fmt::format("must be 1 to {} characters of letters, digits and . _ + -, starting "
                                 "with a letter or digit (it names the results folder)",
                                 kMaxScenarioNameLength));
  }
  s.description = top.string(F["description"]).value_or("");
  s.seed = static_cast<std::uint64_t>(top.integer(F["seed"]).value_or(1));
}

void read_cache_dir(ObjectReader& top, Scenario& s, const ParseOptions& options, json& resolved) {
  const auto given = top.string(field_section("scenario")["cache_dir"]);
  if (given && given->empty()) {
    top.issues().add(top.child("cache_dir"), "must not be empty (it would name the scenario's own folder)");
  }
  if (options.data.cache) s.cache_dir = *options.data.cache;
  else if (given) s.cache_dir = options.base_dir / *given;
  else s.cache_dir = options.data.cache_dir();
  std::error_code ec;
  const fs::path absolute = fs::absolute(s.cache_dir, ec);
  if (!ec) s.cache_dir = absolute.lexically_normal();
  resolved["cache_dir"] = s.cache_dir.string();
}

// A format's scale blocks must tile the model's head dimension (every method read, so index i is item i).
void check_method_head_dim(const Scenario& s, const std::string& path, IssueList& issues) {
  if (s.serving.model.head_dim < 1) return;
  for (std::size_t i = 0; i < s.methods.size(); ++i) {
    if (const auto problem = quant::head_dim_problem(s.methods[i], s.serving.model.head_dim)) {
      issues.add(pointer_child(path, std::to_string(i)), *problem);
    }
  }
}

void read_body(ObjectReader& top, Scenario& s, SectionContext& ctx, json& res) {
  if (const auto* model = top.get("model", true)) {
    s.serving.model = read_model(*model, top.child("model"), ctx, res["model"]);
  }
  auto prefill = read_instances(section(top, "prefill", true), top.child("prefill"), ctx,
                                res["prefill"]);
  resolve_layouts(s.serving.model, true, prefill, top.child("prefill"), ctx.issues, res["prefill"]);
  s.serving.prefill = prefill.first;
  s.serving.extra_prefill = std::move(prefill.extra);
  auto decode = read_instances(section(top, "decode", true), top.child("decode"), ctx,
                               res["decode"]);
  resolve_layouts(s.serving.model, false, decode, top.child("decode"), ctx.issues, res["decode"]);
  s.serving.decode = decode.first;
  s.serving.extra_decode = std::move(decode.extra);
  if (const auto* network = top.get("network", true)) {
    s.network = read_network(*network, top.child("network"), ctx, res["network"]);
    s.network_shorthand = network->is_object() && network->contains("topology") &&
                          network->at("topology").is_string();
  }
  if (const auto* workload = top.get("workload", true)) {
    s.serving.requests = read_workload(*workload, top.child("workload"), ctx, s.seed,
                                       res["workload"], s.serving.client);
  }
  if (const auto* methods = top.get("methods", true)) {
    const std::size_t issues_before = ctx.issues.size();
    s.methods = read_methods(*methods, top.child("methods"), ctx.issues, res["methods"]);
    if (ctx.issues.size() == issues_before) check_method_head_dim(s, top.child("methods"), ctx.issues);
  }
  read_serving(section(top, "serving", false), top.child("serving"), ctx.issues, s.serving,
               res["serving"]);
  s.serving.engine = read_engine(json(res["serving"]["engine"]),
                                 pointer_child(top.child("serving"), "engine"), ctx,
                                 res["serving"]["engine"]);
  read_speculation(section(top, "speculation", false), top.child("speculation"), ctx.issues,
                   s.serving.speculation, res["speculation"]);
  read_slo(section(top, "slo", false), top.child("slo"), ctx.issues, s.serving.slo, res["slo"]);
  read_prefix_cache(top.get("prefix_cache"), top.child("prefix_cache"), ctx.issues,
                    s.serving.prefix_cache, res["prefix_cache"]);
  json loading = json::object();
  read_context_loading(top.get("context_loading"), top.child("context_loading"), ctx.issues,
                       s.serving.context_loading, loading);
  if (s.serving.context_loading.enabled) res["context_loading"] = loading;
  s.accuracy = read_accuracy(section(top, "accuracy", false), top.child("accuracy"), ctx, s.seed,
                             res["accuracy"]);
}

}  // namespace

bool is_safe_scenario_name(const std::string& name) {
  const auto alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  if (name.empty() || name.size() > kMaxScenarioNameLength || !alnum(name.front())) return false;
  return std::all_of(name.begin(), name.end(),
                     [&](char c) { return alnum(c) || c == '.' || c == '_' || c == '+' || c == '-'; });
}

Scenario parse_scenario(const json& document, std::string source_name, const ParseOptions& options) {
  IssueList issues;
  Scenario s;
  s.source_file = std::move(source_name);
  SectionContext ctx{issues, options};
  ObjectReader top(document, "", issues);
  if (top.valid()) {
    json resolved = json::object();
    top.resolve_into(resolved);
    read_header(top, s);
    read_cache_dir(top, s, options, resolved);
    read_body(top, s, ctx, resolved);
    top.finish();
    s.resolved = std::move(resolved);
  }
  s.serving.seed = s.seed;
  if (issues.empty()) check_workload_limits(s, issues);
  if (issues.empty()) check_resource_limits(s, issues);
  if (issues.empty()) check_contexts(s, issues);
  if (issues.empty()) check_decode_capacity(s, issues);
  if (issues.empty()) check_prefix_cache(s, issues);
  if (issues.empty()) check_context_loading(s, issues);
  if (issues.empty()) check_routes(s, issues);
  if (issues.empty()) check_transfer_time(s, issues);
  issues.throw_if_any(s.source_file);
  return s;
}

}  // namespace lynxsim::scenario
