#include "sim/serving/context_loader.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "sim/serving/serving_events.hpp"

namespace lynxsim::serving {

int ContextLoadingSpec::cached_for(int context_tokens) const {
  const double wanted = cached_tokens > 0
                            ? static_cast<double>(cached_tokens)
                            : std::floor(cached_fraction * static_cast<double>(context_tokens));
  return static_cast<int>(std::clamp(wanted, 0.0, static_cast<double>(context_tokens - 1)));
}

void load_prefix_then_prefill(Simulator& sim, KvSender& transfer, RequestState& request,
                              net::HostId store, LoadTarget target, PrefillInstance& prefill) {
  if (target == LoadTarget::decode) {
    request.prefix_from_store = true;
    transfer.load(request, store, request.metrics.cached_tokens, false);
  }
  request.prefilled_tokens = request.metrics.cached_tokens;
  prefill.expect(request);
  transfer.fetch_prefix(request, store, request.metrics.cached_tokens, [&sim, &request, &prefill] {
    request.metrics.cache_fetch_time = sim.now() - request.metrics.arrived_at;
    prefill.submit_expected(request);
  });
}

ContextLoader::ContextLoader(Simulator& sim, const ContextLoadingSpec& spec, net::HostId store,
                             KvSender& transfer, std::vector<const TimingModel*> decode_timing,
                             bool speculative, Callback on_ready, Callback on_full)
    : sim_(sim), spec_(spec), store_(store), transfer_(transfer),
      decode_timing_(std::move(decode_timing)), speculative_(speculative),
      on_ready_(std::move(on_ready)), on_full_(std::move(on_full)) {}

void ContextLoader::start(RequestState& request, PrefillInstance* prefill) {
  auto& m = request.metrics;
  m.cached_tokens = spec_.cached_for(m.context_tokens);
  if (spec_.target == LoadTarget::aggregated) {
    request.aggregated = true;
    m.prefill_instance = -1;
    if (m.cached_tokens == 0) {
      request.full_kv = true;
      kv_ready(request);
      return;
    }
    request.prefix_from_store = true;
    transfer_.load(request, store_, m.cached_tokens, true);
    return;
  }
  if (m.cached_tokens == 0) {
    prefill->submit(request);
    return;
  }
  load_prefix_then_prefill(sim_, transfer_, request, store_, spec_.target, *prefill);
}

void ContextLoader::kv_ready(RequestState& request) {
  auto& m = request.metrics;
  m.cache_fetch_time = sim_.now() - m.arrived_at;
  prefill_suffix(request, "suffix-prefill", [this, &request] {
    request.metrics.prefill_done_at = sim_.now();
    request.metrics.decode_ready_at = sim_.now();
    if (request.full_kv) request.metrics.full_kv_at = sim_.now();
    on_ready_(request);
  });
}

void ContextLoader::kv_full(RequestState& request) {
  if (!speculative_) {
    on_full_(request);
    return;
  }
  request.full_kv = false;
  prefill_suffix(request, "suffix-recompute", [this, &request] {
    request.full_kv = true;
    request.metrics.full_kv_at = sim_.now();
    on_full_(request);
  });
}

void ContextLoader::prefill_suffix(RequestState& request, const char* kernel,
                                   std::function<void()> done) {
  auto& m = request.metrics;
  const auto d = static_cast<std::size_t>(m.decode_instance);
  const SequenceChunk chunk{m.context_tokens - m.cached_tokens, m.cached_tokens};
  const Time duration = decode_timing_[d]->pass(std::span<const SequenceChunk>(&chunk, 1), 1).time;
  KernelStream& stream = transfer_.decode_stream(d);
  const Time start = max(sim_.now(), stream.busy_until());
  const Time end = stream.submit(sim_.now(), duration);
  if (!request.prefill_started) {
    request.prefill_started = true;
    m.prefill_start_at = start;
  }
  sim_.schedule_at(end, [this, &request, kernel, start, end, done = std::move(done)] {
    sim_.bus().publish(KernelRan{request.metrics.id, "decode", kernel, start, end});
    done();
  });
}

}  // namespace lynxsim::serving
