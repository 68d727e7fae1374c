#pragma once
// Decode-side admission of KV transfers: when a request's KV may leave the prefill instance (or the
// store) for its decode instance. One per decode instance (decode_instance.hpp owns it).
//
// A request asks when its first piece is ready to leave (kv_sender.hpp holds the pieces until
// then). Requests are admitted first come, first served, while
//   reserve:  its rank's budget holds its decode reservation (rank_memory.hpp):
//               weights + reserved(rank) + reserve_r <= capacity   (per GPU of the rank),
//             reserve_r its final KV, context + output (+ max_draft_tokens for a speculative
//             method), taken at admission and freed when it finishes. This is what the engines
//             do: vLLM's scheduler allocates the prompt's blocks before NixlConnector pulls them
//             (vllm/v1/core/sched/scheduler.py, request state WAITING_FOR_REMOTE_KVS;
//             vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py), and SGLang's
//             decode server pre-allocates KV in its PreallocQueue before prefill writes it
//             (python/sglang/srt/disaggregation/decode.py). Lynx reserves its full KV, every
//             plane and the draft room, when its anchor is admitted: the residual needs no
//             second admission. The queue is per data-parallel rank: the first request of a rank
//             that does not fit blocks that rank's later requests only;
//   staging:  the decode instance's host transfer buffers hold staged + s_r <= staging_capacity
//             (0: unlimited), s_r the prompt's KV on its decode rank's GPUs as the decode engine
//             stores it (kv_bytes_per_rank(context) x GPUs of the rank), held from admission until
//             the request joins the batch (its KV then moves into the HBM it reserves on joining,
//             decode_instance.hpp). One queue for the instance: its first request blocks the rest;
// and, in both, fewer than max_inflight_transfers admitted transfers have not yet delivered their
// full KV (0: unbounded; TensorRT-LLM's generation executor receives one request's KV at a time
// unless TRTLLM_REQUEST_KV_CACHE_CONCURRENT=1, docs/source/advanced/disaggregated-service.md).
// kv_admission_wait = admitted_at - asked_at.
//
// Deadlock freedom: an admitted request's transfer completes and its request finishes without
// needing more of either budget (reservations only shrink when requests finish; staged bytes leave
// when a request joins, which needs only HBM held by requests that finish), so the head of every
// queue is admitted once enough earlier requests have finished; a request that could never fit
// alone is refused before the run (capacity_check.hpp).
// Units: bytes (per GPU for reservations, per instance for staging), simulated time.

#include <cstdint>
#include <deque>
#include <functional>

#include "sim/core/simulator.hpp"
#include "sim/serving/rank_memory.hpp"
#include "sim/serving/request_state.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::serving {

class KvAdmission {
public:
  using BytesOf = std::function<std::int64_t(const RequestState&)>;
  using Callback = std::function<void(RequestState&)>;

  // `reservation` and `staging` give a request's bytes under each policy; `admit` runs for every
  // admitted request (the decode instance reserves for it, then lets its transfer go).
  KvAdmission(Simulator& sim, int instance, const KvAdmissionSpec& spec, const RankMemory& memory,
              BytesOf reservation, BytesOf staging, Callback admit);

  void ask(RequestState& request);
  // The request's full KV has arrived: its transfer no longer counts as in flight.
  void transfer_done(RequestState& request);
  // The request joined the batch (or finished before): its staged bytes leave the buffers.
  void unstage(RequestState& request);
  // Admits waiting requests that fit now.
  void pump();

  bool reserves() const { return spec_.policy == KvAdmissionPolicy::reserve; }
  std::int64_t staged_bytes() const { return staged_; }
  int in_flight() const { return in_flight_; }
  std::size_t waiting() const { return queue_.size(); }

private:
  bool fits(const RequestState& request, int rank) const;
  void take(RequestState& request);
  void publish() const;

  Simulator& sim_;
  int instance_;
  KvAdmissionSpec spec_;
  const RankMemory& memory_;
  BytesOf reservation_;
  BytesOf staging_;
  Callback admit_;
  std::deque<RequestState*> queue_;
  std::int64_t staged_ = 0;
  int in_flight_ = 0;
};

}  // namespace lynxsim::serving
