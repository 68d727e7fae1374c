#pragma once
// The live state of one request inside a serving run: its metrics record plus what the transfer
// and the decode instance need to know about it. The metrics record lives in the run's result (a
// vector sized before the run starts), so a request's record is never held twice.
//
// A transfer is a list of pieces (a range of layers over some tokens), each sent as one flow per
// plane per prefill rank. The request is decode-ready when every piece has been sent (all_sent)
// and the planes decode needs of every piece have arrived and been decoded.

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/net/network.hpp"
#include "sim/serving/request_metrics.hpp"

namespace lynxsim::serving {

struct TransferPiece {
  int layers = 0;
  int tokens = 0;
  int needed_flows_left = 0;
  int all_flows_left = 0;
};

// A piece handed to the sender before its decode instance admitted the transfer (kv_admission.hpp):
// sent when the admission comes. `store` is the source of a load (from_store), else unused.
struct HeldPiece {
  bool from_store = false;
  net::HostId store = 0;
  int layers = 0;
  int tokens = 0;
  bool last = false;
};

// A request's KV transfer as the timeout sees it (kv_transfer_faults.hpp): the attempt in
// progress, its flows not yet arrived (id and size), the pieces handed over so far (resent whole on
// a retry), and whether the transfer was given up (re-prefilled, committed on the anchor, failed:
// later pieces from prefill are dropped).
struct KvTransferState {
  int attempt = 0;
  bool armed = false;
  std::vector<std::pair<net::FlowId, Bytes>> flows;
  Bytes delivered;  // by the attempt's arrived flows
  std::vector<HeldPiece> handed;
  bool abandoned = false;
  bool ready_signalled = false;
};

// Where a request's transfer stands with its decode instance's admission.
enum class KvGate { unasked, waiting, admitted };

struct RequestState {
  explicit RequestState(RequestMetrics& record) : metrics(record) {}

  RequestMetrics& metrics;
  const std::vector<std::uint32_t>* hash_ids = nullptr;

  std::vector<TransferPiece> pieces;
  bool all_sent = false;
  int pieces_ready = 0;
  int pieces_full = 0;

  // Context loading (serving_config.hpp): the cached prefix reaches the decode GPU from the store
  // (targets decode and aggregated), and the whole request is served there (aggregated).
  bool prefix_from_store = false;
  bool aggregated = false;

  KvGate kv_gate = KvGate::unasked;
  std::vector<HeldPiece> held_pieces;
  net::HostId kv_source = 0;      // the host of the first held piece (a control message's peer)
  Time kv_asked_at;               // when the decode instance was asked to admit the transfer
  std::int64_t staged_bytes = 0;  // held in the decode instance's staging buffers
  bool transfer_in_flight = false;
  KvTransferState kv;

  bool prefill_started = false;
  int prefilled_tokens = 0;  // context tokens whose KV exists on the prefill instance
  std::int64_t reserved_bytes = 0;
  Time memory_clock_at_ready;

  // What the request does in the decode step now running, fixed when the step starts: a step that
  // began on the anchor yields a draft even if the full KV lands before it ends.
  enum class StepKind { commit, draft, verify };
  StepKind step_kind = StepKind::commit;

  bool speculating = false;
  bool full_kv = false;
  bool verify_pending = false;
  bool stalled = false;
  bool finished = false;
  bool joined = false;
  int drafts = 0;

  // Decode batch bookkeeping (decode_instance.hpp): the instance's step count up to which the
  // token counters above are current, the step at whose end the request next needs attention
  // (-1 outside the batch), and its position in batch order.
  std::int64_t synced_step = 0;
  std::int64_t due_step = -1;
  std::uint64_t batch_order = 0;

  int kv_length() const {
    return metrics.context_tokens + metrics.committed_tokens + drafts;
  }
  int tokens_to_prefill() const { return metrics.context_tokens - prefilled_tokens; }
  // Tokens whose KV the prefill instance sends (the suffix when the store sends the prefix).
  int tokens_from_prefill() const {
    return metrics.context_tokens - (prefix_from_store ? metrics.cached_tokens : 0);
  }
};

}  // namespace lynxsim::serving
