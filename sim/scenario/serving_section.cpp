// The "serving", "speculation" and "slo" sections (defaults in brackets):
//   serving {streaming: "layerwise" | "after_prefill" [layerwise],
//            first_token_from: "decode" | "prefill" [decode], max_decode_batch [256],
//            router: "round_robin" | "least_loaded" | "memory_aware" [round_robin],
//            prefill_order: "fcfs" | "shortest_prompt_first" [fcfs],
//            prefill_batch_tokens [0: one prompt per pass], chunked_prefill [false],
//            layers_per_flow [1], decode_hbm_fraction in (0, 1] [0.9], measure_links [true],
//            engine: a configs/engines/ name or an inline profile [vllm] (read by read_engine)}
//   speculation {max_draft_tokens [64], acceptance in [0, 1] (overrides the measured one),
//                stream: "committed" | "speculative" [committed]}
//   slo {ttft, tpot}: durations; absent bounds always hold.

#include <algorithm>
#include <fmt/format.h>

#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/scenario_sections.hpp"

namespace lynxsim::scenario {
namespace {

using nlohmann::json;

constexpr const char* kDefaultEngine = "vllm";

void read_modes(ObjectReader& r, serving::ServingConfig& cfg, json& resolved) {
  using namespace serving;
  cfg.streaming = read_choice<StreamingMode>(
      r, "streaming",
      {{"layerwise", StreamingMode::layerwise}, {"after_prefill", StreamingMode::after_prefill}},
      resolved);
  cfg.first_token_from = read_choice<FirstTokenSource>(
      r, "first_token_from",
      {{"decode", FirstTokenSource::decode}, {"prefill", FirstTokenSource::prefill}}, resolved);
  cfg.router = read_choice<RouterPolicy>(r, "router",
                                         {{"round_robin", RouterPolicy::round_robin},
                                          {"least_loaded", RouterPolicy::least_loaded},
                                          {"memory_aware", RouterPolicy::memory_aware}},
                                         resolved);
  cfg.prefill_schedule.order = read_choice<PrefillOrder>(
      r, "prefill_order",
      {{"fcfs", PrefillOrder::fcfs}, {"shortest_prompt_first", PrefillOrder::shortest_prompt_first}},
      resolved);
}

}  // namespace

void read_serving(const json& value, const std::string& path, IssueList& issues,
                  serving::ServingConfig& cfg, json& resolved) {
  ObjectReader r(value, path, issues);
  read_modes(r, cfg, resolved);
  cfg.max_decode_batch = r.count("max_decode_batch", 1, kMaxDecodeBatch).value_or(256);
  cfg.prefill_schedule.max_batch_tokens = r.count("prefill_batch_tokens", 0, kMaxBatchTokens).value_or(0);
  cfg.prefill_schedule.chunked = r.boolean("chunked_prefill").value_or(false);
  cfg.layers_per_flow = r.count("layers_per_flow", 1, kMaxLayersPerFlow).value_or(1);
  cfg.decode_memory.usable_fraction = r.number("decode_hbm_fraction", 1e-9, 1.0).value_or(0.9);
  cfg.measure_links = r.boolean("measure_links").value_or(true);
  resolved["engine"] = r.get("engine") != nullptr ? *r.get("engine") : json(kDefaultEngine);
  if (cfg.prefill_schedule.chunked && cfg.prefill_schedule.max_batch_tokens == 0) {
    issues.add(r.child("chunked_prefill"), "needs prefill_batch_tokens > 0");
  }
  resolved["max_decode_batch"] = cfg.max_decode_batch;
  resolved["prefill_batch_tokens"] = cfg.prefill_schedule.max_batch_tokens;
  resolved["chunked_prefill"] = cfg.prefill_schedule.chunked;
  resolved["layers_per_flow"] = cfg.layers_per_flow;
  resolved["decode_hbm_fraction"] = cfg.decode_memory.usable_fraction;
  resolved["measure_links"] = cfg.measure_links;
  r.finish();
}

void read_speculation(const json& value, const std::string& path, IssueList& issues,
                      serving::SpeculationSpec& spec, json& resolved) {
  ObjectReader r(value, path, issues);
  spec.max_draft_tokens = r.count("max_draft_tokens", 1, kMaxDraftTokens).value_or(64);
  spec.acceptance = r.number("acceptance", 0.0, 1.0);
  spec.stream = read_choice<serving::SpeculationStream>(
      r, "stream",
      {{"committed", serving::SpeculationStream::committed},
       {"speculative", serving::SpeculationStream::speculative}},
      resolved);
  resolved["max_draft_tokens"] = spec.max_draft_tokens;
  if (spec.acceptance) resolved["acceptance"] = *spec.acceptance;
  r.finish();
}

void read_slo(const json& value, const std::string& path, IssueList& issues,
              serving::ServingSlo& slo, json& resolved) {
  ObjectReader r(value, path, issues);
  slo.ttft = r.time("ttft", true);
  slo.tpot = r.time("tpot", true);
  resolved = json::object();
  if (slo.ttft) resolved["ttft"] = time_text(*slo.ttft);
  if (slo.tpot) resolved["tpot"] = time_text(*slo.tpot);
  r.finish();
}

}  // namespace lynxsim::scenario
