// The key tables of a scenario file (field_table.hpp). Bounds come from input_limits.hpp; defaults
// are what an absent key means, as a scenario would write it.

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <stdexcept>
#include <vector>

#include "sim/scenario/card_fields.hpp"
#include "sim/scenario/field_table.hpp"
#include "sim/scenario/field_tables.hpp"
#include "sim/scenario/flow_list_fields.hpp"
#include "sim/scenario/network_fields.hpp"
#include "sim/scenario/search_fields.hpp"

// Designated initializers leave the other members at their defaults on purpose; GCC 12 still warns.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace lynxsim::scenario {
namespace {

using T = FieldType;

constexpr std::array kScenario{
    Field{.key = "schema_version", .type = T::integer, .doc = "the version of this format",
          .min = 1, .max = 1, .required = true},
    Field{.key = "name", .type = T::text,
          .doc = "1-100 characters of letters, digits and `. _ + -`, starting with a letter or digit "
                 "(it names the default results folder `results/runs/<name>/`)",
          .required = true},
    Field{.key = "description", .type = T::text, .doc = "free text", .default_json = "\"\""},
    Field{.key = "seed", .type = T::integer, .doc = "seeds every random stream of the run",
          .default_json = "1", .min = 0},
    Field{.key = "model", .doc = "a name from `models/` (`\"llama-3.1-8b\"`) or an inline model "
                                 "card object (same fields as `models/*.json`)",
          .required = true},
    Field{.key = "prefill", .doc = "an instance group (below), or a non-empty array of groups (a "
                                   "heterogeneous cluster)",
          .required = true},
    Field{.key = "decode", .doc = "as `prefill`", .required = true},
    Field{.key = "network", .doc = "see below", .required = true},
    Field{.key = "workload", .doc = "see below", .required = true},
    Field{.key = "methods", .doc = "non-empty list, see below", .required = true},
    Field{.key = "serving", .doc = "see below", .default_doc = "all defaults"},
    Field{.key = "speculation", .doc = "see below", .default_doc = "all defaults"},
    Field{.key = "slo", .doc = "bounds for goodput, see below", .default_doc = "none"},
    Field{.key = "prefix_cache", .doc = "see below", .default_doc = "disabled"},
    Field{.key = "context_loading", .doc = "see below", .default_doc = "disabled"},
    Field{.key = "accuracy", .doc = "see below", .default_doc = "all defaults"},
    Field{.key = "cache_dir", .type = T::text,
          .doc = "the cache folder of accuracy results and downloaded models, relative to the "
                 "scenario's folder; `--cache-dir` overrides it (the resolved scenario names the "
                 "folder used); not empty",
          .default_doc = "`~/.cache/lynxsim`"},
};

constexpr std::array kInstanceGroup{
    Field{.key = "gpu", .doc = "a name from `configs/gpus/` or an inline hardware profile",
          .required = true},
    Field{.key = "tp", .type = T::integer, .doc = "tensor-parallel GPUs per instance",
          .default_json = "1", .min = 1, .max = kMaxTensorParallel},
    Field{.key = "count", .type = T::integer, .doc = "instances of the group", .default_json = "1",
          .min = 1, .max = kMaxInstancesPerGroup},
    Field{.key = "attention_dp", .type = T::integer,
          .doc = "attention data-parallel ranks of an instance; each holds its own requests and "
                 "their KV on tp / attention_dp GPUs (must divide tp)",
          .default_doc = "for a MoE card with MLA: prefill tp / 4 (attention TP4, DeepSeek-V3's "
                         "prefill), decode tp (SGLang's DP attention); else 1",
          .min = 1, .max = kMaxTensorParallel},
    Field{.key = "expert_parallel", .type = T::integer,
          .doc = "GPUs the routed experts are spread over: 1 (tensor-parallel experts) or tp (MoE "
                 "layers pay an all-to-all dispatch and combine)",
          .default_doc = "`tp` for a MoE card with MLA, else 1", .min = 1, .max = kMaxTensorParallel},
    Field{.key = "expert_load_imbalance", .type = T::number,
          .doc = "the busiest expert-parallel rank's routed tokens over the mean; scales the "
                 "all-to-all and the expert GEMMs (1: perfectly balanced, an optimistic bound; "
                 "1.11 with EPLB and 2.56 without: DeepSeek-R1 at EP32, TensorRT-LLM's "
                 "large-scale EP blog, Table 1)",
          .default_json = "1.11", .min = 1, .max = 64},
    Field{.key = "node_gpus", .type = T::integer,
          .doc = "GPUs per node on the scale-up link; the expert all-to-all of a larger instance "
                 "sends the rest of its bytes through each GPU's NIC",
          .default_json = "8", .min = 1, .max = kMaxTensorParallel},
    Field{.key = "all_to_all", .type = T::choice,
          .doc = "how a prefill instance's expert all-to-all crosses nodes when its expert group "
                 "spans more than one node and its ranks sit on distinct hosts of the network: as "
                 "flows sharing the NICs with the KV transfers, or in closed form (no contention); "
                 "in-node traffic, decode steps and instances on shared hosts always use the closed "
                 "form",
          .default_json = "\"flows\"", .choices = "flows|closed-form"},
};

constexpr std::array kPrefixCache{
    Field{.key = "enabled", .type = T::boolean, .doc = "keep and fetch prefix blocks",
          .default_doc = "`true` when the section is given, else `false`"},
    Field{.key = "store_host", .type = T::name,
          .doc = "a host of the network (`\"leaf1.h7\"` on a leaf-spine)",
          .default_doc = "required when enabled"},
    Field{.key = "capacity", .type = T::size, .doc = "`\"0B\"` is unlimited", .default_json = "\"0B\""},
    Field{.key = "block_tokens", .type = T::integer,
          .doc = "tokens per block (512 for Mooncake traces)", .default_json = "512", .min = 1,
          .max = kMaxBlockTokens},
    Field{.key = "target", .type = T::choice,
          .doc = "who receives a hit: the prefill instance (the suffix prefill waits for every "
                 "plane, then the whole context goes to decode), or the decode instance (the store "
                 "also sends the prefix to decode, anchor first, and prefill sends only the "
                 "suffix; see context_loading; not for cachegen)",
          .default_json = "\"prefill\"", .choices = "prefill|decode"},
};

constexpr std::array kContextLoading{
    Field{.key = "store_host", .type = T::name, .doc = "a host of the network", .required = true},
    Field{.key = "target", .type = T::choice, .doc = "who receives the prefix (table above)",
          .choices = "prefill|decode|aggregated", .required = true},
    Field{.key = "cached_tokens", .type = T::integer,
          .doc = "tokens of every prompt whose KV is in the store (at most the context - 1)",
          .default_doc = "one of the two required", .min = 1, .max = kTokensBound},
    Field{.key = "cached_fraction", .type = T::number, .doc = "floor(f * context) tokens",
          .default_doc = "one of the two required", .min = 0, .max = 1, .open_min = true},
};

constexpr std::array kServing{
    Field{.key = "streaming", .type = T::choice,
          .doc = "KV leaves as each layer finishes, or after the whole prefill",
          .default_json = "\"layerwise\"", .choices = "layerwise|after_prefill"},
    Field{.key = "first_token_from", .type = T::choice,
          .doc = "`\"decode\"` is the paper's view; `\"prefill\"` is what disaggregated vLLM "
                 "proxies do: every method then has the same TTFT, and the table compares the "
                 "first decode token (TTDT)",
          .default_json = "\"decode\"", .choices = "decode|prefill"},
    Field{.key = "max_decode_batch", .type = T::integer, .doc = "sequences per decode step",
          .default_json = "256", .min = 1, .max = kMaxDecodeBatch},
    Field{.key = "router", .type = T::choice, .doc = "how requests pick instances",
          .default_json = "\"round_robin\"", .choices = "round_robin|least_loaded|memory_aware"},
    Field{.key = "prefill_order", .type = T::choice, .doc = "the prefill queue's order",
          .default_json = "\"fcfs\"", .choices = "fcfs|shortest_prompt_first"},
    Field{.key = "prefill_batch_tokens", .type = T::integer,
          .doc = "prompt tokens per prefill pass (0: one prompt per pass)", .default_json = "0",
          .min = 0, .max = kMaxBatchTokens},
    Field{.key = "chunked_prefill", .type = T::boolean, .doc = "needs `prefill_batch_tokens` > 0",
          .default_json = "false"},
    Field{.key = "layers_per_flow", .type = T::integer,
          .doc = "layers per flow in layer-wise streaming", .default_json = "1", .min = 1,
          .max = kMaxLayersPerFlow},
    Field{.key = "decode_hbm_fraction", .type = T::number,
          .doc = "HBM usable for weights and KV on decode", .default_json = "0.9", .min = 0,
          .max = 1, .open_min = true},
    Field{.key = "kv_admission", .type = T::choice,
          .doc = "when a request's KV may leave prefill: its decode rank first reserves its final "
                 "KV (vLLM NixlConnector, SGLang with Mooncake), or it waits in host staging "
                 "buffers and reserves on joining the batch (docs/design.md, \"KV admission\")",
          .default_json = "\"reserve\"", .choices = "reserve|staging"},
    Field{.key = "staging_capacity", .type = T::size,
          .doc = "host staging buffers per decode instance (`\"staging\"`); `\"0B\"` is unlimited, "
                 "else at least the longest prompt's KV on one decode rank",
          .default_json = "\"0B\""},
    Field{.key = "max_inflight_transfers", .type = T::integer,
          .doc = "KV transfers in flight per decode instance (1: TensorRT-LLM's default)",
          .default_doc = "unbounded", .min = 1, .max = kMaxDecodeBatch},
    Field{.key = "transfer_initiator", .type = T::choice,
          .doc = "who starts a transfer: prefill pushes (SGLang with Mooncake), decode pulls after "
                 "one control round trip (vLLM NixlConnector)",
          .default_json = "\"prefill\"", .choices = "prefill|decode"},
    Field{.key = "kv_transfer_timeout", .type = T::duration,
          .doc = "a KV transfer not complete this long after its first flow started is cancelled "
                 "(TensorRT-LLM's `kv_transfer_timeout_ms`; docs/design.md, \"Transfer timeouts\")",
          .default_doc = "none (never)", .min = 1},
    Field{.key = "kv_transfer_retries", .type = T::integer,
          .doc = "resends of a timed-out transfer before its request fails (fallback `\"retry\"`, "
                 "or `\"commit_on_anchor\"` before the anchor is in)",
          .default_json = "0", .min = 0, .max = kMaxTransferRetries},
    Field{.key = "kv_transfer_fallback", .type = T::choice,
          .doc = "after a timeout: resend, prefill the prompt on the decode GPU (vLLM's "
                 "`kv_load_failure_policy` \"recompute\"), or (speculative methods) commit at the "
                 "anchor's precision, marked degraded",
          .default_json = "\"reprefill_on_decode\"",
          .choices = "retry|reprefill_on_decode|commit_on_anchor"},
    Field{.key = "measure_links", .type = T::boolean,
          .doc = "integrate link loads for utilisation figures", .default_json = "true"},
    Field{.key = "engine",
          .doc = "a serving-engine profile name from `configs/engines/` (`vllm`, "
                 "`vllm-fast-handover`, `vllm-loaded-handover`, `vllm-0.5`, `sglang`, `mindie`, "
                 "`lmdeploy-turbomind`, `ideal`) or an inline profile object",
          .default_json = "\"vllm\""},
    Field{.key = "prompt_token_ids", .type = T::boolean,
          .doc = "clients send token ids rather than text (a benchmark's `--tokenize-prompt`): "
                 "the engine's tokenization costs nothing",
          .default_json = "false"},
};

constexpr std::array kSpeculation{
    Field{.key = "max_draft_tokens", .type = T::integer,
          .doc = "drafts a request may make before its verification", .default_json = "64",
          .min = 1, .max = kMaxDraftTokens},
    Field{.key = "acceptance", .type = T::number,
          .doc = "overrides the measured acceptance of every speculative method",
          .default_doc = "measured", .min = 0, .max = 1},
    Field{.key = "stream", .type = T::choice,
          .doc = "what the client of a speculative method is sent (below)",
          .default_json = "\"committed\"", .choices = "committed|speculative"},
};

constexpr std::array kSlo{
    Field{.key = "ttft", .type = T::duration, .doc = "time to first token",
          .default_doc = "none (always holds)", .min = 1},
    Field{.key = "tpot", .type = T::duration, .doc = "time per output token",
          .default_doc = "none (always holds)", .min = 1},
};

constexpr std::array kAccuracy{
    Field{.key = "enabled", .type = T::boolean, .doc = "measure the methods' precision",
          .default_json = "true"},
    Field{.key = "kv_file", .type = T::text,
          .doc = "captured KV to measure on, relative to the scenario's folder",
          .default_doc = "synthetic KV"},
    Field{.key = "profile", .type = T::text,
          .doc = "the synthetic-KV profile of the measurement: a file name of `configs/kv_profiles/` "
                 "without `.json` (`llama-like`)",
          .default_doc = "the built-in `llama-like`"},
    Field{.key = "seed", .type = T::integer, .doc = "seeds the synthetic KV",
          .default_doc = "the scenario seed", .min = 0},
};

constexpr std::array kRequest{
    Field{.key = "context", .type = T::integer, .doc = "prompt tokens", .min = 1, .max = kTokensBound,
          .required = true},
    Field{.key = "output", .type = T::integer, .doc = "generated tokens", .min = 1, .max = kTokensBound,
          .required = true},
    Field{.key = "arrival", .type = T::duration, .doc = "from time zero", .default_json = "\"0s\"",
          .min = 0},
};

constexpr std::array kCopies{
    Field{.key = "copies", .type = T::integer, .doc = "copies of one request", .min = 1,
          .max = kRequestsBound, .required = true},
    Field{.key = "context", .type = T::integer, .doc = "prompt tokens", .min = 1, .max = kTokensBound,
          .required = true},
    Field{.key = "output", .type = T::integer, .doc = "generated tokens", .min = 1, .max = kTokensBound,
          .required = true},
    Field{.key = "interval", .type = T::duration, .doc = "copy i arrives at start + i * interval",
          .default_json = "\"0s\"", .min = 0},
    Field{.key = "start", .type = T::duration, .doc = "the first arrival",
          .default_json = "\"0s\"", .min = 0},
};

}  // namespace

std::span<const FieldSection> scenario_field_sections() {
  static const std::vector<FieldSection> sections = [] {
    std::vector<FieldSection> all{
        FieldSection{"scenario", "", kScenario},
        FieldSection{"instance-group", "/prefill", kInstanceGroup},
        FieldSection{"prefix-cache", "/prefix_cache", kPrefixCache},
        FieldSection{"context-loading", "/context_loading", kContextLoading},
    };
    const auto network = network_field_sections();
    all.insert(all.end(), network.begin(), network.end());
    all.insert(all.end(), {
        FieldSection{"workload-request", "/workload/requests/0", kRequest},
        FieldSection{"workload-copies", "/workload", kCopies},
        FieldSection{"workload-trace", "/workload/trace", workload_trace_fields()},
        FieldSection{"workload-synthetic", "/workload/synthetic", workload_synthetic_fields()},
        FieldSection{"workload-closed-loop", "/workload/closed_loop", workload_closed_loop_fields()},
        FieldSection{"length", "/workload/synthetic/context", length_fields()},
        FieldSection{"method", "/methods/0", method_fields()},
        FieldSection{"cachegen", "/methods/0/cachegen", cachegen_fields()},
        FieldSection{"serving", "/serving", kServing},
        FieldSection{"speculation", "/speculation", kSpeculation},
        FieldSection{"slo", "/slo", kSlo},
        FieldSection{"accuracy", "/accuracy", kAccuracy},
    });
    const auto cards = card_field_sections();
    all.insert(all.end(), cards.begin(), cards.end());
    const auto flow_list = flow_list_field_sections();
    all.insert(all.end(), flow_list.begin(), flow_list.end());
    const auto search = search_field_sections();
    all.insert(all.end(), search.begin(), search.end());
    return all;
  }();
  return sections;
}

const FieldSection& field_section(std::string_view id) {
  const auto sections = scenario_field_sections();
  const auto it = std::find_if(sections.begin(), sections.end(),
                               [&](const FieldSection& s) { return s.id == id; });
  if (it == sections.end()) {
    throw std::logic_error(fmt::format("no scenario field table \"{}\"", id));
  }
  return *it;
}

}  // namespace lynxsim::scenario
