#pragma once
// A prefill instance: one tensor-parallel group running prefill passes over a queue of prompts.
//
// Queue order is first come, first served, or shortest prompt first (fewest tokens still to
// prefill; ties by arrival). A pass takes prompts in queue order while their tokens fit the
// schedule's max_batch_tokens (0: one prompt per pass); a prompt that does not fit waits for the
// next pass, unless the pass is empty (it then runs alone) or prefill is chunked (it is split to
// fill the budget, its remainder first in line for the next pass). A prompt with a cached prefix
// (or an earlier chunk) attends to those c tokens: its chunk is {n new, c cached}.
//
// Each layer of a pass takes the TimingModel's layer time for the pass's chunks (linear layers,
// causal attention, all-reduces, fixed cost); the LM head over the prompts that finish in the pass
// and the per-step overhead follow the last layer:
//   pass_time = L * (layer(chunks) + sum_r encode_r) + lm_head(finishing) + step_overhead
// With layer-wise streaming, each prompt's encode kernel of layer l runs on the same GPU right
// after layer l (the next layer waits for it), and a prompt's KV leaves as one piece per
// `layers_per_flow` layers (the first chunk's piece also carries the cached prefix). After-prefill
// streaming encodes every layer of a finished prompt once its pass is done and sends one piece;
// the next pass waits for those encode kernels. With an expert exchange (expert_exchange.hpp),
// each group of layers (a piece's) ends once its compute and then its cross-node all-to-all flows
// and in-node time are over; its piece leaves then. prefill_done_at is the end of the pass that
// computes a prompt's last chunk; the first token, when the scenario takes it from prefill, is
// available then.

#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "sim/compute/timing_model.hpp"
#include "sim/core/simulator.hpp"
#include "sim/serving/expert_exchange.hpp"
#include "sim/serving/kv_sender.hpp"
#include "sim/serving/request_state.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::serving {

struct PrefillParams {
  int index = 0;
  StreamingMode streaming = StreamingMode::layerwise;
  PrefillSchedule schedule;
  int layers_per_flow = 1;
  // The cross-node expert all-to-all as flows (expert_exchange.hpp); null: in the layer time.
  ExpertExchange* exchange = nullptr;
};

class PrefillInstance {
public:
  using Callback = std::function<void(RequestState&)>;

  PrefillInstance(Simulator& sim, const TimingModel& timing, KvSender& transfer,
                  PrefillParams params, Callback on_done);

  void submit(RequestState& request);
  // A prompt routed here whose cached prefix is still being fetched counts as load from routing
  // on (else every request arriving during a fetch sees this instance idle); submit_expected()
  // then queues it.
  void expect(const RequestState& request) { outstanding_tokens_ += request.tokens_to_prefill(); }
  void submit_expected(RequestState& request) {
    outstanding_tokens_ -= request.tokens_to_prefill();
    submit(request);
  }
  // Tokens still to prefill over every queued or running prompt (the router's load figure).
  std::int64_t outstanding_tokens() const { return outstanding_tokens_; }
  int index() const { return params_.index; }

private:
  struct Slice {
    RequestState* request = nullptr;
    int new_tokens = 0;
    int cached_tokens = 0;
    int piece_tokens = 0;
    bool last = false;
  };
  using QueueKey = std::pair<std::int64_t, std::uint64_t>;

  void start_next();
  void form_pass();
  void add_slice(std::map<QueueKey, RequestState*>::iterator it, int tokens);
  void run_layers(int first_layer);
  void layers_done(int first_layer, int count, Time started);
  void publish_layers(int first_layer, int count, Time started) const;
  void publish_queue() const;
  void publish_pass() const;
  void send_pieces(int first_layer, int count);
  void finish_pass();
  void after_pass();

  Simulator& sim_;
  const TimingModel& timing_;
  KvSender& transfer_;
  PrefillParams params_;
  Callback on_done_;
  std::map<QueueKey, RequestState*> queue_;
  std::uint64_t sequence_ = 0;
  std::int64_t outstanding_tokens_ = 0;
  std::vector<Slice> pass_;
  Time pass_started_;
  Time layer_time_;
  Time encode_time_;
  ExpertTraffic traffic_;
  bool busy_ = false;
};

}  // namespace lynxsim::serving
