// The "context_loading" section: every request's cached prefix is loaded from a KV store host
// (serving/context_loader.hpp). Its keys are the "context-loading" table of scenario_fields.cpp;
// exactly one of cached_tokens and cached_fraction is given.
// Checks that need the whole scenario: the store host exists; no prefix_cache section beside it;
// an aggregated target takes its first token from decode (the serving GPU's first step); cachegen
// loads to the prefill or an aggregated instance only (its chunked coder sends one stream per
// request).

#include <fmt/format.h>

#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/scenario_sections.hpp"

namespace lynxsim::scenario {

using nlohmann::json;

void read_context_loading(const json* value, const std::string& path, IssueList& issues,
                          serving::ContextLoadingSpec& spec, json& resolved) {
  using serving::LoadTarget;
  spec.enabled = value != nullptr;
  if (value == nullptr) return;
  const FieldSection& F = field_section("context-loading");
  ObjectReader r(*value, path, issues);
  r.resolve_into(resolved);
  const auto host = r.string(F["store_host"]);
  spec.store_host = host.value_or("");
  if (host && host->empty()) issues.add(r.child("store_host"), "must not be empty");
  spec.target = r.choice<LoadTarget>(F["target"], {{"prefill", LoadTarget::prefill},
                                                   {"decode", LoadTarget::decode},
                                                   {"aggregated", LoadTarget::aggregated}});
  const auto tokens = r.count(F["cached_tokens"]);
  const auto fraction = r.number(F["cached_fraction"]);
  const bool has_tokens = value->is_object() && value->contains("cached_tokens");
  const bool has_fraction = value->is_object() && value->contains("cached_fraction");
  if (has_tokens == has_fraction && r.valid()) {
    issues.add(path, "needs exactly one of \"cached_tokens\" and \"cached_fraction\"");
  }
  spec.cached_tokens = tokens.value_or(0);
  spec.cached_fraction = fraction.value_or(0.0);
  r.finish();
}

void check_context_loading(const Scenario& s, IssueList& issues) {
  const serving::ContextLoadingSpec& spec = s.serving.context_loading;
  if (!spec.enabled) return;
  check_store_host(s, spec.store_host, "/context_loading/store_host", issues);
  if (s.serving.prefix_cache.enabled) {
    issues.add("/context_loading", "cannot be combined with a prefix_cache section");
  }
  if (spec.target == serving::LoadTarget::aggregated &&
      s.serving.first_token_from == serving::FirstTokenSource::prefill) {
    issues.add("/serving/first_token_from",
               "an aggregated context-loading target makes the first token in a decode step; "
               "use \"decode\"");
  }
  if (has_cachegen_method(s) && spec.target == serving::LoadTarget::decode) {
    issues.add("/context_loading/target",
               "cachegen loads context to the \"prefill\" or an \"aggregated\" instance only");
  }
}

}  // namespace lynxsim::scenario
