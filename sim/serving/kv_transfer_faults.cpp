#include "sim/serving/kv_transfer_faults.hpp"

#include <algorithm>
#include <span>

#include "sim/serving/kv_sender.hpp"
#include "sim/serving/serving_events.hpp"

namespace lynxsim::serving {

void KvSender::set_transfer_timeout(const KvTransferSpec& spec, FaultHooks hooks) {
  timeout_ = spec;
  hooks_ = std::move(hooks);
}

void KvSender::start_kv_flow(RequestState& request, net::FlowSpec spec, std::function<void()> arrived) {
  const Bytes size = spec.size;
  if (!timeout_.timeout) {
    network_.start_flow(std::move(spec), [&request, size, arrived = std::move(arrived)](const auto&) {
      request.metrics.kv_bytes_sent += size;
      arrived();
    });
    return;
  }
  const net::FlowId id = network_.start_flow(
      std::move(spec), [&request, size, arrived = std::move(arrived)](const net::FlowRecord& record) {
        auto& flows = request.kv.flows;
        const auto it = std::find_if(flows.begin(), flows.end(),
                                     [&record](const auto& f) { return f.first == record.id; });
        *it = flows.back();
        flows.pop_back();
        request.metrics.kv_bytes_sent += size;
        request.kv.delivered += size;
        arrived();
      });
  request.kv.flows.emplace_back(id, size);
  if (!request.kv.armed && !request.aggregated) arm(request);
}

void KvSender::arm(RequestState& request) {
  request.kv.armed = true;
  sim_.schedule_in(*timeout_.timeout,
                   [this, &request, attempt = request.kv.attempt] { timed_out(request, attempt); });
}

void KvSender::timed_out(RequestState& request, int attempt) {
  KvTransferState& kv = request.kv;
  if (stale(request, attempt) || kv.abandoned || (kv.flows.empty() && request.all_sent)) return;
  auto& m = request.metrics;
  ++m.kv_timeouts;
  const Bytes cancelled = cancel_flows(request);
  ++kv.attempt;
  kv.armed = false;
  const bool commits = timeout_.fallback == KvTransferFallback::commit_on_anchor && kv.ready_signalled;
  m.kv_bytes_wasted += commits ? cancelled : cancelled + kv.delivered;
  kv.delivered = Bytes{0};
  if (commits || timeout_.fallback == KvTransferFallback::reprefill_on_decode) {
    kv.abandoned = true;
    if (commits) {
      hooks_.commit_on_anchor(request);
    } else {
      reprefill(request);
    }
    return;
  }
  if (m.kv_timeouts <= timeout_.retries) {
    resend(request);
    return;
  }
  kv.abandoned = true;
  if (!request.finished) m.failure = FailureCause::kv_transfer_timeout;
  hooks_.fail(request);
}

Bytes KvSender::cancel_flows(RequestState& request) {
  Bytes sent;
  for (const auto& flow : request.kv.flows) sent += network_.cancel_flow(flow.first);
  request.kv.flows.clear();
  request.metrics.kv_bytes_sent += sent;
  return sent;
}

void KvSender::resend(RequestState& request) {
  reset_pieces(request);
  const std::vector<HeldPiece> handed = std::move(request.kv.handed);
  request.kv.handed.clear();
  for (const HeldPiece& piece : handed) hand_over(request, piece);
}

void KvSender::reprefill(RequestState& request) {
  auto& m = request.metrics;
  const auto d = static_cast<std::size_t>(m.decode_instance);
  const SequenceChunk chunk{m.context_tokens, 0};
  const Time duration = params_.decode_timing[d]->pass(std::span<const SequenceChunk>(&chunk, 1), 1).time;
  KernelStream& stream = decode_streams_[d];
  const Time start = max(sim_.now(), stream.busy_until());
  const Time end = stream.submit(sim_.now(), duration);
  sim_.schedule_at(end, [this, &request, start, end] {
    sim_.bus().publish(KernelRan{request.metrics.id, "decode", "reprefill", start, end});
    auto& metrics = request.metrics;
    metrics.reprefilled = true;
    metrics.full_kv_at = sim_.now();
    request.full_kv = true;
    if (!request.kv.ready_signalled) {
      metrics.decode_ready_at = sim_.now();
      on_ready_(request);
    }
    on_full_(request);
  });
}

}  // namespace lynxsim::serving
