#pragma once
// Context loading: a request's cached prefix of c tokens comes from a KV store host instead of being
// prefilled (serving_config.hpp, ContextLoadingSpec; c = cached_for(context), s = context - c).
//
// Timeline per target, for a request routed at time a:
//   prefill     store -> prefill ranks (every plane, kv_sender.hpp fetch_prefix); when the last
//               flow is in, the prompt queues for a prefill of its s suffix tokens attending to the
//               c cached ones; its whole context then goes to decode as without a store.
//   decode      at a the store sends the prefix to the decode ranks (KvSender::load, anchor
//               first) and, at the same time, the exact prefix to the prefill ranks; the suffix
//               prefill starts when the latter is in and sends the suffix's KV only. The decode
//               instance is ready when the planes it needs of both have been decoded.
//   aggregated  at a the store sends the prefix to the serving GPU (the decode instance). When the
//               planes decode needs are decoded at r, the suffix prefill runs on that GPU:
//                 P = TimingModel::pass({s new, c cached}, 1 finishing prompt)
//               on its KV stream, so it queues behind the stream's kernels and pauses decode steps
//               like them (decode_instance.hpp); at its end the request is decode-ready and the
//               next decode step makes its first token. For a speculative method that token is a
//               draft: the suffix's KV attended to the anchor. When the full KV is merged, the
//               suffix is prefilled again (time P, same stream) on the exact prefix; only then are
//               the drafts verified (full_kv_at is the end of that second prefill).
// For an aggregated request the prefill fields of its metrics describe the suffix prefill
// (prefill_start_at, prefill_done_at = decode_ready_at: no transfer follows it, so the exposed
// transfer is zero), cache_fetch_time is a -> r, and prefill_instance is -1.
//
// Assumptions: the store's KV is already encoded with the method (no encode time); the store host
// sends at its link's rate with no disk or CPU bottleneck; c >= 1 (a request with nothing cached is
// prefilled as usual).

#include <functional>
#include <vector>

#include "sim/compute/timing_model.hpp"
#include "sim/core/simulator.hpp"
#include "sim/net/network.hpp"
#include "sim/serving/kv_sender.hpp"
#include "sim/serving/prefill_instance.hpp"
#include "sim/serving/request_state.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::serving {

// Loads the request's cached prefix (metrics.cached_tokens) from `store` for a prefill or decode
// target (above): for decode the store also sends it to the decode ranks; in both cases the exact
// prefix goes to the prefill instance, which then queues the suffix and counts the prompt as load
// from now on.
void load_prefix_then_prefill(Simulator& sim, KvSender& transfer, RequestState& request,
                              net::HostId store, LoadTarget target, PrefillInstance& prefill);

class ContextLoader {
public:
  using Callback = std::function<void(RequestState&)>;

  // decode_timing: one per decode instance (the serving GPUs of aggregated requests); on_ready and
  // on_full are the decode instance's, called when an aggregated request is ready and verified.
  ContextLoader(Simulator& sim, const ContextLoadingSpec& spec, net::HostId store,
                KvSender& transfer, std::vector<const TimingModel*> decode_timing,
                bool speculative, Callback on_ready, Callback on_full);

  LoadTarget target() const { return spec_.target; }
  // Starts loading a routed request. `prefill` is its prefill instance (nullptr when aggregated).
  void start(RequestState& request, PrefillInstance* prefill);
  // The KV sender's callbacks for an aggregated request.
  void kv_ready(RequestState& request);
  void kv_full(RequestState& request);

private:
  void prefill_suffix(RequestState& request, const char* kernel, std::function<void()> done);

  Simulator& sim_;
  ContextLoadingSpec spec_;
  net::HostId store_;
  KvSender& transfer_;
  std::vector<const TimingModel*> decode_timing_;
  bool speculative_;
  Callback on_ready_;
  Callback on_full_;
};

}  // namespace lynxsim::serving
