#pragma once
// A decode instance: continuous batching under an HBM budget.
//
// Memory model, per GPU (every GPU of an attention rank holds the same share; rank_memory.hpp):
//   weights_per_rank + sum over the attention rank's resident requests of reserve_r
//     <= hbm_capacity * usable_fraction
//   reserve_r = kv_bytes_per_rank(context + output + (speculative ? max_draft : 0))  (timing_model.hpp;
//               per token times tokens for a model without sliding-window or linear layers)
// A request reserves its final KV size once and frees it when it finishes, so a resident request
// never needs more (no preemption). When it reserves is the KV admission policy (kv_admission.hpp):
// "reserve" takes it before any of the request's KV leaves the prefill instance; "staging" when the
// request first joins the batch, its KV waiting until then in the host transfer buffers, outside
// this budget (bounded by staging_capacity). A request with no transfer (aggregated, nothing
// cached) reserves when it joins under either policy.
//
// Admission is first come, first served per data-parallel attention rank: requests whose full KV
// arrived after a speculative stall rejoin first (they hold their reservation); then decode-ready
// requests join while the batch has fewer than max_batch requests and they hold their reservation
// or their rank's budget holds it. The first request of a rank that does not fit blocks that rank's later
// requests, not other ranks' (one rank, D = 1: it blocks the queue). The time a request waits
// while its rank is blocked by memory (not by the batch size) is its memory_wait_time: with B_r(t)
// rank r's accumulated memory-blocked time, memory_wait = B_r(joined_at) - B_r(decode_ready_at).
//
// Steps run back to back while any request is in the batch. Each request in the step gains one
// token: a committed token, or a draft when it is speculating (its full KV has not arrived).
// Speculation is capped at max_draft_tokens drafts: a request at the cap leaves the batch until its
// full KV arrives. When the full KV of a request with k drafts arrives, its next step verifies them
// instead of producing a token: a forward over k + 1 query positions after its committed KV, with
// the full-precision KV (TimingModel::verify_step: the drafts and the bonus position, inside the
// batch's weight stream). The verification commits A + 1 tokens (speculation.hpp); the k - A
// rejected positions leave the KV and later steps generate them again, one per step, until the
// output length is committed. A verification commits at least one token, so first_commit_at is the
// end of that step.
//
// The step's GPU work W is TimingModel::verify_step over the batch (decode_step when nobody
// verifies). The KV kernels of this instance's GPU (dequantize and merge of arriving planes,
// kv_sender.hpp) run on the same GPU: a kernel takes the GPU when it is submitted (the stream is
// FIFO among kernels) and the step in progress pauses for it, so a step that starts at s ends at
// the first e with
//   e = s + W + K(s, e),   K(s, e) = kernel time of the GPU's stream inside [s, e).
// Kernels running while no step runs cost the batch nothing; a step starting during a kernel waits
// for it. This conserves the GPU's time (steps and kernels never overlap) and gives the small
// kernels priority, so a kernel ends no later than it would alone.
//
// Bookkeeping. A step in which no member starts, finishes, reaches the draft cap or verifies only
// adds one committed token or one draft to each member. The instance therefore counts its steps
// and brings a member's counters up to date (synced_step) only at the end of a step in which the
// member needs attention: its first step after joining, the step at which it will finish or reach
// the cap, a verification, or the step during which its full KV arrived. Those steps are kept in a
// heap ordered by (step, batch order), so members are handled in batch order as a pass over the
// whole batch would handle them. A plain step's cost needs the batch's KV length sum, which is
//   sum over members of (kv_length - synced_step) + batch size * steps
// (exact integers; PassTotals' half-integer sums stay exact in a double). A plain step thus costs
// O(1) plus O(log B) per member needing attention, with the same results as a per-member pass.
//
// Quiet steps. The steps from a step start to the next step in which a member needs attention
// change nothing outside the instance, so (with merge_quiet_steps and no DecodeStepDone listener)
// the instance plans them at once, each end from the equation above with the kernels recorded so
// far, and schedules one event at the last one; the steps it folds count as the events they
// would have been. Anything that could change the plan splits it at the step then in progress: a
// request becoming decode-ready, a full KV arriving, a kernel submitted to start before the plan's
// end. Where such an event, or any other event at the plan's end, falls on the very picosecond of
// a planned step event, the order of the two would depend on when each was scheduled; the
// instance then throws QuietStepTie and run_serving runs the method again step by step, so the
// results are always those of the step-by-step simulation.

#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <vector>

#include "sim/compute/timing_model.hpp"
#include "sim/core/simulator.hpp"
#include "sim/serving/kernel_stream.hpp"
#include "sim/serving/kv_admission.hpp"
#include "sim/serving/rank_memory.hpp"
#include "sim/serving/request_state.hpp"

namespace lynxsim::serving {

struct DecodeParams {
  int index = 0;
  int max_batch = 256;
  int max_draft_tokens = 64;
  double acceptance = 1.0;
  bool speculative = false;
  double usable_fraction = 0.9;
  bool merge_quiet_steps = true;
  KvAdmissionSpec admission{};
};

// A planned quiet step fell on the time of another event (see above).
struct QuietStepTie : std::runtime_error {
  QuietStepTie() : std::runtime_error("decode: a planned step shares its time with another event") {}
};

class DecodeInstance {
public:
  using Callback = std::function<void(RequestState&)>;

  // Throws std::invalid_argument when the weights alone exceed the usable HBM.
  // `kernels` is the KV kernel stream of this instance's GPU; it must outlive the instance.
  DecodeInstance(Simulator& sim, const TimingModel& timing, KernelStream& kernels,
                 DecodeParams params, Callback on_finish);

  // The router has sent a request here (its transfer will follow).
  void on_routed(RequestState& request);
  void on_decode_ready(RequestState& request);
  void on_full_kv(RequestState& request);

  // KV admission (kv_admission.hpp): the request's first piece is ready to leave; its full KV has
  // arrived. `on_admitted` runs when a transfer may go (set before the run).
  void ask_transfer(RequestState& request) { admission_.ask(request); }
  void transfer_done(RequestState& request) { admission_.transfer_done(request); }
  // Transfer timeouts (kv_transfer_faults.hpp): the request's transfer was given up (it leaves
  // wherever it is and frees its reservation and admission slot; a request the prefill instance
  // already finished, one output token from prefill, is not failed); or it stops speculating and
  // commits its drafts and later tokens at the anchor's precision.
  void fail(RequestState& request);
  void commit_on_anchor(RequestState& request);
  void set_on_admitted(Callback on_admitted) { on_admitted_ = std::move(on_admitted); }
  const KvAdmission& admission() const { return admission_; }

  std::int64_t reservation(const RequestState& request) const;
  std::int64_t capacity_bytes() const { return memory_.capacity(); }     // per GPU
  std::int64_t pool_bytes() const { return memory_.capacity() * memory_.ranks(); }  // over the ranks
  std::int64_t reserved_bytes() const { return memory_.total_used(); }  // summed over the ranks
  std::int64_t expected_bytes() const { return expected_bytes_; }
  std::int64_t peak_bytes() const { return memory_.peak(); }            // the fullest GPU's
  int routed_requests() const { return routed_; }
  std::size_t active() const { return batch_.size(); }

private:
  void transfer_admitted(RequestState& request);
  void reserve_for(RequestState& request);
  void release_for(RequestState& request);
  std::int64_t staging_bytes(const RequestState& request) const;
  void admit(RequestState& request);
  void admit_waiting();
  bool batch_has_room() const;
  void admit_rejoining();
  void publish_queue();
  void publish_memory(int rank);
  void maybe_start_step();
  Time step_time();
  Time plain_step_time(std::int64_t steps_done) const;
  bool plan_quiet_steps();
  void finish_plan();
  void split_plan();
  void step_work_done();
  void end_step(Time started);
  void catch_up(RequestState& request, std::int64_t step);
  // Brings a member up to date and makes it due at the end of the step in progress.
  void attend_next_step(RequestState& request);
  void plan(RequestState& request);
  std::int64_t next_due(const RequestState& request) const;
  void attend(RequestState& request);
  Time verifying_step_time();
  void advance(RequestState& request);
  void verify(RequestState& request);
  void commit(RequestState& request, int tokens);
  void commit_drafts(RequestState& request);
  void leave_batch(RequestState& request);
  void finish(RequestState& request);

  Simulator& sim_;
  const TimingModel& timing_;
  KernelStream& kernels_;
  DecodeParams params_;
  Callback on_finish_;
  RankMemory memory_;
  KvAdmission admission_;
  Callback on_admitted_;
  std::int64_t kv_per_token_ = 0;
  bool layered_kv_ = false;  // sliding-window or linear layers: KV not proportional to tokens
  std::int64_t expected_bytes_ = 0;
  int routed_ = 0;
  std::deque<RequestState*> rejoining_;
  std::deque<RequestState*> waiting_;
  std::vector<RequestState*> batch_;
  struct Due {
    std::int64_t step;
    std::uint64_t order;
    RequestState* request;
  };
  static bool later(const Due& a, const Due& b);
  std::vector<Due> due_;  // a min-heap by (step, order); entries of a re-planned request go stale
  std::int64_t steps_ = 0;
  std::int64_t length_offset_ = 0;  // sum over the batch of kv_length - synced_step
  int verifying_ = 0;               // members whose next step verifies
  mutable TimingModel::DecodeSteps plain_steps_;  // at the batch size of the latest plain step
  std::uint64_t next_order_ = 0;
  struct Planned {
    Time start;
    Time work;
    Time end;
    std::uint64_t events;  // step events of the step-by-step simulation: 1 + kernel extensions
  };
  std::vector<Planned> plan_;  // empty when the step in progress runs on its own events
  // Steps planned at most: doubled after a plan that ran out, cut to the steps that ran after a
  // split, so a plan seldom computes many steps that a split then discards.
  static constexpr std::size_t kMinPlanned = 4;
  static constexpr std::size_t kMaxPlanned = 1024;
  std::size_t plan_limit_ = kMinPlanned;
  EventId plan_event_;
  int published_waiting_ = 0;
  bool stepping_ = false;
  Time step_started_;  // the step in progress: its start and its GPU work without KV kernels
  Time step_work_;
};

}  // namespace lynxsim::serving
