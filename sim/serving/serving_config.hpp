#pragma once
// Everything a serving run needs, as typed values (the scenario layer fills it from JSON).
//
// A cluster of prefill and decode instances (each a model on a GPU type with a tensor-parallel
// degree; `count` identical instances per group), a router that assigns every arriving request to
// one prefill and one decode instance, the requests, how KV leaves the prefill GPU (layer by layer
// while prefill runs, or all at once after it), the prefill batching policy, the decode memory
// model, an optional prefix cache and the speculation limits of speculative methods. The network is
// built by a factory so that serving depends only on the Network interface, never on a topology;
// instance i of a role places its tensor-parallel ranks with Network::place(role, i, rank, tp),
// instances numbered across groups in order.
//
// Defaults reproduce the single-request timeline: one instance per role, one prompt per prefill
// pass, one flow per plane per rank per layer, no memory limit beyond the GPU's HBM, no cache.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/compute/engine_spec.hpp"
#include "sim/compute/expert_parallel.hpp"
#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"
#include "sim/core/simulator.hpp"
#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/net/network.hpp"
#include "sim/quant/method_spec.hpp"

namespace lynxsim::serving {

enum class StreamingMode { layerwise, after_prefill };
enum class FirstTokenSource { decode, prefill };
// What the client of a speculative method is sent: only verified tokens, or drafts as they are made
// (a rolled-back draft is then a visible retraction).
enum class SpeculationStream { committed, speculative };
enum class RouterPolicy { round_robin, least_loaded, memory_aware };
enum class PrefillOrder { fcfs, shortest_prompt_first };

// The network's placement pools of the two roles (net::Network::place; a scenario's prefill_hosts
// and decode_hosts).
inline constexpr net::PoolId kPrefillPool = 0;
inline constexpr net::PoolId kDecodePool = 1;

struct InstanceSpec {
  HardwareSpec gpu;
  int tensor_parallel = 1;
  int count = 1;
  // Attention data parallelism and expert parallelism inside an instance (expert_parallel.hpp).
  ExpertParallelLayout parallel{};
  // A prefill instance whose expert group spans hosts sends its cross-node all-to-all as flows
  // (expert_exchange.hpp); false: the closed form (expert_parallel.hpp). Decode keeps the closed form.
  bool all_to_all_flows = true;
};

struct RequestSpec {
  Time arrival_at;
  int context_tokens = 0;
  int output_tokens = 1;
  // Mooncake prefix blocks: hash_ids[i] names tokens [i * block, (i + 1) * block) of the prompt.
  std::vector<std::uint32_t> hash_ids{};
};

// Precision figures measured for a method (sim/accuracy), attached to its results. `acceptance` is
// the per-token probability that a draft made on the anchor equals the verified token, and
// acceptance_source where it came from ("proxy", "real smollm2-135m at N tokens", "proxy
// calibrated on ...", "scenario" when the scenario fixes it, "default" when nothing was measured),
// and [acceptance_low, acceptance_high] the range the measurement supports.
struct MethodQuality {
  double acceptance = 1.0;
  std::string acceptance_source = "default";
  std::map<std::string, double> metrics;
  // Measured encoded bytes per token relative to bf16 (methods whose size is measured, cachegen).
  double measured_size_ratio = 0.0;
  // cachegen: the measured ratio of every quality level (index = level, 0 = highest quality), from
  // accuracy::run_cachegen_sizes; empty = one level of measured_size_ratio.
  std::vector<double> cachegen_level_ratios{};
  // The context length the metrics were measured at (0: none measured).
  int measured_context = 0;
  double acceptance_low = 1.0;
  double acceptance_high = 1.0;
};

struct SpeculationSpec {
  int max_draft_tokens = 64;
  std::optional<double> acceptance;
  SpeculationStream stream = SpeculationStream::committed;
};

// Prefill batching: a pass takes queued prompts in order while their tokens fit max_batch_tokens
// (0: one prompt per pass). With `chunked`, the last prompt is split so the pass fills the budget
// exactly and its remainder leads the next pass (requires max_batch_tokens > 0).
struct PrefillSchedule {
  PrefillOrder order = PrefillOrder::fcfs;
  int max_batch_tokens = 0;
  bool chunked = false;
};

// Decode HBM: weights_per_rank + sum of reserved KV per rank <= hbm_capacity * usable_fraction.
struct DecodeMemorySpec {
  double usable_fraction = 0.9;
};

// When a request's KV may leave the prefill instance (kv_admission.hpp has the model and sources):
//   reserve  its decode rank reserves the request's final KV first (vLLM NixlConnector,
//            SGLang with Mooncake); the transfer waits while the rank's HBM cannot hold it;
//   staging  KV lands in host transfer buffers outside the HBM budget, at most staging_capacity
//            bytes per decode instance (0: unlimited, lynxsim's earlier model); the HBM reservation
//            is taken when the request joins the batch.
// max_inflight_transfers bounds the transfers in flight per decode instance (0: unbounded); the
// initiator "decode" pulls (a control round trip before the data), "prefill" pushes.
enum class KvAdmissionPolicy { reserve, staging };
enum class TransferInitiator { prefill, decode };

struct KvAdmissionSpec {
  KvAdmissionPolicy policy = KvAdmissionPolicy::reserve;
  Bytes staging_capacity{0};
  int max_inflight_transfers = 0;
  TransferInitiator initiator = TransferInitiator::prefill;
};

// A KV transfer that has not delivered every flow within `timeout` of its first flow's start is
// cancelled (kv_transfer_faults.hpp has the model and sources); then, by fallback:
//   retry                resend the whole KV, at most `retries` times, then fail the request;
//   reprefill_on_decode  the decode instance prefills the prompt itself (vLLM's kv_load_failure_policy
//                        "recompute");
//   commit_on_anchor     (speculative methods) with the anchor in, the request commits its drafts
//                        at the anchor's precision, unverified (degraded); before the anchor, as retry.
enum class KvTransferFallback { retry, reprefill_on_decode, commit_on_anchor };

struct KvTransferSpec {
  std::optional<Time> timeout;  // none: transfers never time out
  int retries = 0;
  KvTransferFallback fallback = KvTransferFallback::reprefill_on_decode;
};

// Context loading (CacheGen's and LMCache's setting, and KV-store hits in disaggregated serving):
// the KV of every request's first c tokens is in a store host, encoded with the method, and is
// loaded over the network instead of being prefilled. c = cached_tokens when given, else
// floor(cached_fraction * context); c is capped at context - 1 (the last prompt token is always
// prefilled: its logits give the first token). The target is the GPU that receives the planes:
//   prefill     the prefill instance (as a prefix-cache hit): the suffix prefill needs the exact
//               prefix, so it waits for every plane; the whole context then goes to decode as usual.
//   decode      the decode instance receives the prefix from the store (anchor first, decode may
//               speculate on it); the prefill instance fetches the exact prefix too, prefills the
//               suffix and sends only the suffix's KV.
//   aggregated  one instance serves the request (the decode group's GPU): the store sends the
//               prefix there, the suffix is prefilled on that GPU as soon as the planes decode needs
//               are in, and a speculative method prefills the suffix again on the full KV (the
//               suffix's KV attended to the anchor) before its drafts are verified.
enum class LoadTarget { prefill, decode, aggregated };

struct ContextLoadingSpec {
  bool enabled = false;
  std::string store_host;
  LoadTarget target = LoadTarget::aggregated;
  int cached_tokens = 0;  // > 0: a fixed count; 0: cached_fraction of the context
  double cached_fraction = 0.0;

  int cached_for(int context_tokens) const;
};

// A KV store host holding 512-token prefix blocks (Mooncake hash_ids) encoded with the method; a
// hit is loaded to `target` (prefill or decode, as for context loading).
struct PrefixCacheSpec {
  bool enabled = false;
  std::string store_host;
  Bytes capacity{0};
  int block_tokens = 512;
  LoadTarget target = LoadTarget::prefill;
};

// Service-level objectives for goodput: a request meets them when TTFT <= ttft and TPOT <= tpot
// (an absent bound always holds).
struct ServingSlo {
  std::optional<Time> ttft;
  std::optional<Time> tpot;
};

// A client that keeps at most `concurrency` requests in flight and frees a slot `think_time` after
// its request finishes (client.hpp); the requests' arrival_at are then their ready times.
struct ClientSpec {
  int concurrency = 1;
  Time think_time = Time::zero();
};

using NetworkFactory = std::function<std::unique_ptr<net::Network>(Simulator&)>;

struct ServingConfig {
  ModelSpec model;
  InstanceSpec prefill;
  InstanceSpec decode;
  // More groups of instances after `prefill` / `decode` (heterogeneous clusters).
  std::vector<InstanceSpec> extra_prefill;
  std::vector<InstanceSpec> extra_decode;
  StreamingMode streaming = StreamingMode::layerwise;
  FirstTokenSource first_token_from = FirstTokenSource::decode;
  SpeculationSpec speculation;
  int max_decode_batch = 256;
  // The serving engine's host-side costs (engine_spec.hpp); none: the GPU profiles' overheads only.
  std::optional<EngineSpec> engine;
  // Clients send token ids, not text (a benchmark's --tokenize-prompt): no side tokenizes the prompt.
  bool prompt_token_ids = false;
  RouterPolicy router = RouterPolicy::round_robin;
  PrefillSchedule prefill_schedule;
  DecodeMemorySpec decode_memory;
  KvAdmissionSpec kv_admission;
  KvTransferSpec kv_transfer;
  PrefixCacheSpec prefix_cache;
  ContextLoadingSpec context_loading;
  ServingSlo slo;
  // Layer-wise streaming sends one flow per plane per rank for every `layers_per_flow` layers.
  int layers_per_flow = 1;
  // Integrate link loads over the run (utilisation in ClusterStats; costs one callback per change).
  bool measure_links = true;
  std::vector<RequestSpec> requests;
  // None: every request arrives at its arrival_at (open loop).
  std::optional<ClientSpec> client;
  NetworkFactory make_network;
  std::uint64_t seed = 1;
};

// One InstanceSpec per instance (groups expanded), prefill or decode.
std::vector<InstanceSpec> expand_instances(const InstanceSpec& first,
                                           const std::vector<InstanceSpec>& extra);

}  // namespace lynxsim::serving
