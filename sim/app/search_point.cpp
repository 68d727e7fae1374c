#include "sim/app/search_point.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/app/card_lookup.hpp"
#include "sim/app/method_quality.hpp"
#include "sim/app/run_energy.hpp"
#include "sim/app/scenario_serving.hpp"
#include "sim/plan/memory_fit.hpp"
#include "sim/serving/serving_run.hpp"

namespace lynxsim::app {
namespace {

constexpr double kGiB = 1073741824.0;

std::vector<std::string> overrides_at(const SearchConfig& config, double rate) {
  std::vector<std::string> o = config.overrides;
  o.push_back(rate_override(rate));
  return o;
}

std::optional<std::string> role_problem(const char* role, const RoleChoice& r, const HardwareSpec& base_gpu,
                                        std::int64_t tokens, double fraction, SearchContext& context) {
  const ModelSpec& model = context.base->serving.model;
  const HardwareSpec gpu = r.gpu == base_gpu.name ? base_gpu : find_gpu(context.data, r.gpu);
  const bool prefill = std::string_view(role) == "prefill";
  const plan::FitResult fit = plan::memory_fit(
      {&model, &gpu, r.tensor_parallel, default_layout(model, r.tensor_parallel, prefill), tokens, fraction});
  if (fit.fits) return std::nullopt;
  return fmt::format("{} {} tp{}: weights {:.1f} GiB + KV {:.1f} GiB per rank for {} tokens exceed {:.1f} GiB",
                     role, r.gpu, r.tensor_parallel, fit.weights_bytes / kGiB, fit.kv_bytes / kGiB, tokens,
                     fit.usable_bytes / kGiB);
}

const serving::MethodQuality& quality_of(const scenario::Scenario& s, SearchContext& context) {
  const std::lock_guard lock(context.quality_lock);
  const std::string& name = s.methods.at(0).name;
  for (const auto& [method, quality] : context.qualities) {
    if (method == name) return quality;
  }
  context.qualities.emplace_back(name, measure_method_qualities(context.data, s).at(0));
  return context.qualities.back().second;
}

struct Probe {
  plan::SloOutcome slo;
  double mean_output_tokens = 0.0;
  double joules_per_token = 0.0;
};

Probe probe(const SearchConfig& config, double rate, SearchContext& context) {
  const scenario::Scenario s = scenario::load_scenario(context.base->source_file, overrides_at(config, rate), context.data);
  const serving::MethodQuality& quality = quality_of(s, context);
  Probe p;
  try {
    const serving::MethodResult result = serving::run_serving(runnable_serving(s), s.methods.at(0), quality);
    p.slo = plan::evaluate_slo(result.requests, context.search->targets);
    double tokens = 0.0;
    for (const auto& r : result.requests) tokens += r.output_tokens;
    p.mean_output_tokens = result.requests.empty() ? 0.0 : tokens / static_cast<double>(result.requests.size());
    if (const auto energy = scenario_energy(context.energy, s, result)) p.joules_per_token = energy->per_token_j;
  } catch (const serving::UnservedRequests&) {
    p.slo.meets = false;
  }
  return p;
}

void price(const SearchConfig& config, const scenario::Scenario& at_rate, SearchContext& context, SearchOutcome& out) {
  const plan::DeploymentCost cost = plan::deployment_cost(
      context.search->prices,
      {{config.prefill.gpu, config.prefill.tensor_parallel, config.prefill.count},
       {config.decode.gpu, config.decode.tensor_parallel, config.decode.count}},
      plan::host_port_rate(at_rate.network.topology));
  out.gpus = cost.gpus;
  out.usd_per_hour = cost.usd_per_hour();
  out.goodput_per_gpu = out.rate.found / cost.gpus;
  out.usd_per_m_tokens = plan::usd_per_million_tokens(out.usd_per_hour, out.rate.found, out.mean_output_tokens);
}

}  // namespace

const char* status_name(PointStatus status) {
  switch (status) {
    case PointStatus::found: return "found";
    case PointStatus::no_rate: return "no_rate";
    case PointStatus::pruned: return "pruned";
  }
  return "";
}

std::optional<std::string> prune_reason(const SearchConfig& config, SearchContext& context) {
  const serving::ServingConfig& sv = context.base->serving;
  std::int64_t prompt = 0;
  std::int64_t total = 0;
  for (const auto& r : sv.requests) {
    prompt = std::max<std::int64_t>(prompt, r.context_tokens);
    total = std::max<std::int64_t>(total, std::int64_t{r.context_tokens} + r.output_tokens);
  }
  if (auto p = role_problem("prefill", config.prefill, sv.prefill.gpu, prompt, 1.0, context)) return p;
  return role_problem("decode", config.decode, sv.decode.gpu, total, sv.decode_memory.usable_fraction, context);
}

std::optional<std::string> check_config(const SearchConfig& config, SearchContext& context) {
  try {
    scenario::load_scenario(context.base->source_file, overrides_at(config, context.search->rate.min), context.data);
  } catch (const scenario::ScenarioError& e) {
    const bool capacity = std::all_of(e.issues().begin(), e.issues().end(),
                                      [](const scenario::ScenarioIssue& i) { return i.json_path == "/decode"; });
    if (capacity && !e.issues().empty()) return "decode: " + e.issues().front().message;
    std::vector<scenario::ScenarioIssue> issues;
    for (const auto& i : e.issues()) {
      issues.push_back({"/choices", fmt::format("configuration \"{}\": {}: {}: {}", config.key(), e.file(),
                                                i.json_path.empty() ? "/" : i.json_path, i.message)});
    }
    throw scenario::ScenarioError(context.search->source_file, issues);
  }
  return std::nullopt;
}

SearchOutcome evaluate_point(const SearchConfig& config, SearchContext& context) {
  SearchOutcome out;
  Probe best;
  out.rate = plan::highest_rate(context.search->rate, [&](double rate) {
    const Probe p = probe(config, rate, context);
    if (p.slo.meets) best = p;
    return p.slo.meets;
  });
  out.slo = best.slo;
  out.mean_output_tokens = best.mean_output_tokens;
  out.joules_per_token = best.joules_per_token;
  if (out.rate.found <= 0.0) return out;
  out.status = PointStatus::found;
  const scenario::Scenario s =
      scenario::load_scenario(context.base->source_file, overrides_at(config, out.rate.found), context.data);
  price(config, s, context, out);
  return out;
}

}  // namespace lynxsim::app
