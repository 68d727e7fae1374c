// The "context_loading" section: every request's cached prefix is loaded from a KV store host
// (serving/context_loader.hpp).
//   context_loading {"store_host": a host of the network (required),
//                    "target": "prefill" | "decode" | "aggregated" (required),
//                    "cached_tokens": count >= 1, or "cached_fraction": in (0, 1] (exactly one)}
// Checks that need the whole scenario: the store host exists; no prefix_cache section beside it;
// an aggregated target takes its first token from decode (the serving GPU's first step); cachegen
// loads to the prefill or an aggregated instance only (its chunked coder sends one stream per
// request).

#include <fmt/format.h>

#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/scenario_sections.hpp"

namespace lynxsim::scenario {

using nlohmann::json;

void read_context_loading(const json* value, const std::string& path, IssueList& issues,
                          serving::ContextLoadingSpec& spec, json& resolved) {
  using serving::LoadTarget;
  spec.enabled = value != nullptr;
  if (value == nullptr) return;
  ObjectReader r(*value, path, issues);
  const auto host = r.string("store_host", true);
  spec.store_host = host.value_or("");
  if (host && host->empty()) issues.add(r.child("store_host"), "must not be empty");
  r.get("target", true);
  spec.target = read_choice<LoadTarget>(r, "target",
                                        {{"aggregated", LoadTarget::aggregated},
                                         {"decode", LoadTarget::decode},
                                         {"prefill", LoadTarget::prefill}},
                                        resolved);
  const auto tokens = r.count("cached_tokens", 1, kMaxTokensPerRequest);
  const auto fraction = r.number("cached_fraction", 1e-9, 1.0);
  const bool has_tokens = value->is_object() && value->contains("cached_tokens");
  const bool has_fraction = value->is_object() && value->contains("cached_fraction");
  if (has_tokens == has_fraction && r.valid()) {
    issues.add(path, "needs exactly one of \"cached_tokens\" and \"cached_fraction\"");
  }
  spec.cached_tokens = tokens.value_or(0);
  spec.cached_fraction = fraction.value_or(0.0);
  r.finish();
  resolved["store_host"] = spec.store_host;
  if (tokens) resolved["cached_tokens"] = *tokens;
  if (fraction) resolved["cached_fraction"] = *fraction;
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
