// The "serving", "speculation" and "slo" sections; their keys, bounds and defaults are the
// "serving", "speculation" and "slo" tables of scenario_fields.cpp. serving.engine is resolved
// here and read by read_engine (card_lookup.cpp); absent SLO bounds always hold.

#include <algorithm>
#include <fmt/format.h>

#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/scenario_sections.hpp"

namespace lynxsim::scenario {
namespace {

using nlohmann::json;

void read_modes(ObjectReader& r, serving::ServingConfig& cfg) {
  using namespace serving;
  const FieldSection& F = field_section("serving");
  cfg.streaming = r.choice<StreamingMode>(
      F["streaming"],
      {{"layerwise", StreamingMode::layerwise}, {"after_prefill", StreamingMode::after_prefill}});
  cfg.first_token_from = r.choice<FirstTokenSource>(
      F["first_token_from"],
      {{"decode", FirstTokenSource::decode}, {"prefill", FirstTokenSource::prefill}});
  cfg.router = r.choice<RouterPolicy>(F["router"], {{"round_robin", RouterPolicy::round_robin},
                                                    {"least_loaded", RouterPolicy::least_loaded},
                                                    {"memory_aware", RouterPolicy::memory_aware}});
  cfg.prefill_schedule.order = r.choice<PrefillOrder>(
      F["prefill_order"],
      {{"fcfs", PrefillOrder::fcfs}, {"shortest_prompt_first", PrefillOrder::shortest_prompt_first}});
}

void read_admission(ObjectReader& r, serving::KvAdmissionSpec& spec) {
  using namespace serving;
  const FieldSection& F = field_section("serving");
  spec.policy = r.choice<KvAdmissionPolicy>(
      F["kv_admission"], {{"reserve", KvAdmissionPolicy::reserve}, {"staging", KvAdmissionPolicy::staging}});
  spec.staging_capacity = r.bytes(F["staging_capacity"]).value_or(spec.staging_capacity);
  spec.max_inflight_transfers = r.count(F["max_inflight_transfers"]).value_or(0);
  spec.initiator = r.choice<TransferInitiator>(
      F["transfer_initiator"], {{"prefill", TransferInitiator::prefill}, {"decode", TransferInitiator::decode}});
  if (spec.policy == KvAdmissionPolicy::reserve && spec.staging_capacity.value > 0) {
    r.issues().add(r.child("staging_capacity"), "applies to kv_admission \"staging\" only");
  }
}

void read_kv_transfer(ObjectReader& r, serving::KvTransferSpec& spec) {
  using namespace serving;
  const FieldSection& F = field_section("serving");
  spec.timeout = r.time(F["kv_transfer_timeout"]);
  spec.retries = r.count(F["kv_transfer_retries"]).value_or(0);
  spec.fallback = r.choice<KvTransferFallback>(
      F["kv_transfer_fallback"], {{"retry", KvTransferFallback::retry},
                                  {"reprefill_on_decode", KvTransferFallback::reprefill_on_decode},
                                  {"commit_on_anchor", KvTransferFallback::commit_on_anchor}});
  if (!spec.timeout && spec.retries > 0) {
    r.issues().add(r.child("kv_transfer_retries"), "needs kv_transfer_timeout");
  } else if (spec.fallback == KvTransferFallback::reprefill_on_decode && spec.retries > 0) {
    r.issues().add(r.child("kv_transfer_retries"),
                   "applies to kv_transfer_fallback \"retry\" or \"commit_on_anchor\" only");
  }
}

}  // namespace

void read_serving(const json& value, const std::string& path, IssueList& issues,
                  serving::ServingConfig& cfg, json& resolved) {
  const FieldSection& F = field_section("serving");
  ObjectReader r(value, path, issues);
  r.resolve_into(resolved);
  read_modes(r, cfg);
  read_admission(r, cfg.kv_admission);
  read_kv_transfer(r, cfg.kv_transfer);
  cfg.max_decode_batch = r.count(F["max_decode_batch"]).value_or(cfg.max_decode_batch);
  cfg.prefill_schedule.max_batch_tokens =
      r.count(F["prefill_batch_tokens"]).value_or(cfg.prefill_schedule.max_batch_tokens);
  cfg.prefill_schedule.chunked = r.boolean(F["chunked_prefill"]).value_or(false);
  cfg.layers_per_flow = r.count(F["layers_per_flow"]).value_or(cfg.layers_per_flow);
  cfg.decode_memory.usable_fraction =
      r.number(F["decode_hbm_fraction"]).value_or(cfg.decode_memory.usable_fraction);
  cfg.measure_links = r.boolean(F["measure_links"]).value_or(true);
  cfg.prompt_token_ids = r.boolean(F["prompt_token_ids"]).value_or(false);
  const Field& engine = F["engine"];
  resolved["engine"] = r.get(engine.key) != nullptr ? *r.get(engine.key)
                                                    : json::parse(engine.default_json);
  if (cfg.prefill_schedule.chunked && cfg.prefill_schedule.max_batch_tokens == 0) {
    issues.add(r.child("chunked_prefill"), "needs prefill_batch_tokens > 0");
  }
  r.finish();
}

void read_speculation(const json& value, const std::string& path, IssueList& issues,
                      serving::SpeculationSpec& spec, json& resolved) {
  const FieldSection& F = field_section("speculation");
  ObjectReader r(value, path, issues);
  r.resolve_into(resolved);
  spec.max_draft_tokens = r.count(F["max_draft_tokens"]).value_or(spec.max_draft_tokens);
  spec.acceptance = r.number(F["acceptance"]);
  spec.stream = r.choice<serving::SpeculationStream>(
      F["stream"], {{"committed", serving::SpeculationStream::committed},
                    {"speculative", serving::SpeculationStream::speculative}});
  r.finish();
}

void read_slo(const json& value, const std::string& path, IssueList& issues,
              serving::ServingSlo& slo, json& resolved) {
  const FieldSection& F = field_section("slo");
  resolved = json::object();
  ObjectReader r(value, path, issues);
  r.resolve_into(resolved);
  slo.ttft = r.time(F["ttft"]);
  slo.tpot = r.time(F["tpot"]);
  r.finish();
}

}  // namespace lynxsim::scenario
