#pragma once
// What a serving run measures for each request (docs/design.md, "What TTFT means"), and the result of one method.
//
// Timestamps (_at) are on the simulator clock; durations derive from them:
//   TTFT_spec        = first_token_at  - arrived_at   (first token made, a draft for Lynx: the
//                                                      paper's TTFT)
//   TTFT_commit      = first_commit_at - arrived_at   (first token verified against the full KV;
//                                                      equals TTFT_spec for plain methods)
//   TTFT             = what the client sees: TTFT_spec when drafts stream to it
//                      (speculation.stream "speculative"), else TTFT_commit
//   TTDT_spec/commit = decode_first_token_at / decode_first_commit_at - arrived_at: the first
//                      token made by decode; the second token when the prefill instance emits the
//                      first (first_token_from "prefill"), else the same as TTFT
//   retracted tokens = drafts the client saw and then saw withdrawn: the wasted drafts when drafts
//                      stream, else 0
//   E2E              = last_token_at   - arrived_at
//   TPOT             = (last_token_at - first_commit_at) / (output_tokens - 1)   (0 for one token)
//   exposed transfer = decode_ready_at - prefill_done_at
//   prefill queue    = prefill_start_at - arrived_at
//   decode admission = decode_joined_at - decode_ready_at   (of which memory_wait_time was spent
//                      waiting for decode HBM; the rest waiting for a batch slot)
//   KV admission     = kv_admission_wait: from the moment the request's first KV could leave until
//                      its decode instance admitted the transfer (kv_admission.hpp; part of the
//                      exposed transfer)
//   cache fetch      = cache_fetch_time: fetching the cached prefix from the KV store (part of the
//                      prefill queue time)
// ClusterStats aggregates a run: prefix-cache hits, decode memory peak, link utilisation (per
// directed link, mean = integral of its load over the run / (capacity * simulated time)),
// throughput, and goodput (requests meeting the scenario's SLOs per simulated second).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/serving/serving_config.hpp"
#include "sim/quant/method_spec.hpp"

namespace lynxsim::serving {

// Why a request failed (none: it finished).
enum class FailureCause { none, kv_transfer_timeout };
std::string_view failure_cause_name(FailureCause cause);

struct RequestMetrics {
  std::uint64_t id = 0;
  int context_tokens = 0;
  int output_tokens = 0;
  Time arrived_at;
  Time prefill_start_at;
  Time prefill_done_at;
  Time decode_ready_at;
  Time full_kv_at;
  Time decode_joined_at;
  Time first_token_at;
  Time first_commit_at;
  Time decode_first_token_at;
  Time decode_first_commit_at;
  bool streams_drafts = false;
  Time last_token_at;
  std::vector<Bytes> plane_bytes;
  int verifications = 0;
  int rollbacks = 0;
  int drafted_tokens = 0;
  int accepted_tokens = 0;
  int wasted_draft_tokens = 0;
  int committed_tokens = 0;
  int prefill_instance = 0;
  int decode_instance = 0;
  int cached_tokens = 0;
  Time cache_fetch_time;
  Time memory_wait_time;
  Time kv_admission_wait;
  bool meets_slo = true;
  // KV transfer faults (kv_transfer_faults.hpp): bytes that left a source for this request's KV
  // flows to decode, of which wasted in cancelled flows; timeouts; how the request ended.
  Bytes kv_bytes_sent;
  Bytes kv_bytes_wasted;
  int kv_timeouts = 0;
  bool reprefilled = false;
  bool degraded = false;
  FailureCause failure = FailureCause::none;
  bool failed() const { return failure != FailureCause::none; }
  // cachegen: chunks sent at each quality level (index = level) and chunks sent as text.
  std::vector<int> cachegen_chunks_per_level;
  int cachegen_text_chunks = 0;

  Time ttft_speculative() const { return first_token_at - arrived_at; }
  Time ttft_commit() const { return first_commit_at - arrived_at; }
  Time ttft() const { return streams_drafts ? ttft_speculative() : ttft_commit(); }
  Time ttdt_speculative() const { return decode_first_token_at - arrived_at; }
  Time ttdt_commit() const { return decode_first_commit_at - arrived_at; }
  Time ttdt() const { return streams_drafts ? ttdt_speculative() : ttdt_commit(); }
  int retracted_tokens() const { return streams_drafts ? wasted_draft_tokens : 0; }
  Time e2e() const { return last_token_at - arrived_at; }
  Time tpot() const;
  Time exposed_transfer_time() const { return decode_ready_at - prefill_done_at; }
  Time prefill_queue_time() const { return prefill_start_at - arrived_at; }
  Time decode_admission_time() const { return decode_joined_at - decode_ready_at; }
};

struct LinkUtilisation {
  std::uint32_t link = 0;
  double mean = 0.0;
  double peak = 0.0;
  std::string name;  // "<from node>-><to node>" (Network::link_name)
  // Utilisation per bin of ClusterStats::link_series_bin_s from t = 0 (link_series.hpp); empty for
  // links beyond the bounded number that get a series.
  std::vector<double> series;
};

// Energy of a run (plan/energy.hpp computes it; absent when no power table was given), joules.
struct EnergyTotals {
  double gpu_idle_j = 0.0;     // every GPU at idle power for the whole run
  double gpu_work_j = 0.0;     // above idle: prefill and decode passes
  double codec_j = 0.0;        // above idle: KV encode and decode kernels
  double network_j = 0.0;      // NICs and switches, per bit sent
  double total_j() const { return gpu_idle_j + gpu_work_j + codec_j + network_j; }
  double per_request_j = 0.0;  // total over requests
  double per_token_j = 0.0;    // total over output tokens
};

struct ClusterStats {
  int num_prefill = 1;
  int num_decode = 1;
  std::int64_t cache_lookup_blocks = 0;
  std::int64_t cache_hit_blocks = 0;
  std::int64_t cache_evicted_blocks = 0;
  std::int64_t cache_hit_tokens = 0;
  double cache_block_hit_rate = 0.0;
  double peak_decode_memory_fraction = 0.0;
  std::vector<LinkUtilisation> links;  // links that carried traffic, by link id
  double max_link_utilisation = 0.0;
  double link_series_bin_s = 0.0;
  double requests_per_s = 0.0;
  double output_tokens_per_s = 0.0;
  // Time average of requests in flight from the first arrival to the last finish:
  // sum of E2E / (last finish - first arrival).
  double achieved_concurrency = 0.0;
  int client_concurrency = 0;  // the client's cap (ServingConfig::client); 0: open loop
  std::int64_t requests_meeting_slo = 0;
  double goodput_requests_per_s = 0.0;
  std::optional<EnergyTotals> energy;
};

struct MethodResult {
  quant::MethodSpec method;
  MethodQuality quality;
  SpeculationStream stream = SpeculationStream::committed;
  FirstTokenSource first_token_from = FirstTokenSource::decode;
  std::vector<RequestMetrics> requests;
  std::uint64_t events_executed = 0;
  Time simulated_time;
  ClusterStats cluster;
};

}  // namespace lynxsim::serving
