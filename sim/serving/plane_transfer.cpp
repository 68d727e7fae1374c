#include "sim/serving/plane_transfer.hpp"

#include <fmt/format.h>

#include "sim/serving/kv_head_map.hpp"
#include "sim/serving/serving_events.hpp"

namespace lynxsim::serving {

PlaneTransfer::PlaneTransfer(Simulator& sim, net::Network& network, KvTransferParams params,
                             Callback on_ready, Callback on_full)
    : KvSender(sim, network, std::move(params), std::move(on_ready), std::move(on_full)) {}

void PlaneTransfer::begin(RequestState& request) const {
  if (!request.prefix_from_store) reset_pieces(request);
  set_plane_bytes(request, params_.tp(request, false), request.metrics.context_tokens);
}

void PlaneTransfer::set_plane_bytes(RequestState& request, int src_tp, int tokens) const {
  request.metrics.plane_bytes = transfer_plane_bytes(*params_.method, params_.geometry, src_tp,
                                                     params_.tp(request, true), tokens, params_.measured_size_ratio);
}

Time PlaneTransfer::encode_time(const RequestState& request, int layers, int tokens) const {
  if (params_.method->family == quant::MethodFamily::bf16) return Time::zero();
  Bytes encoded;
  for (const Bytes b : heads_bytes(params_.rank_heads(request, false), layers, tokens)) encoded += b;
  const auto p = static_cast<std::size_t>(request.metrics.prefill_instance);
  return params_.prefill_timing[p]->kernel_time(
      bf16_bytes(params_.rank_heads(request, false), layers, tokens), encoded, layers);
}

void PlaneTransfer::send_piece(RequestState& request, int layers, int tokens, bool last) {
  const auto src = params_.kv_hosts(request, false);
  send_flows(request, src, params_.tp(request, false), layers, tokens, last);
}

void PlaneTransfer::load_piece(RequestState& request, net::HostId store, int tokens, bool last) {
  if (request.aggregated) {
    reset_pieces(request);
    set_plane_bytes(request, 1, tokens);
  }
  send_flows(request, {store}, 1, params_.geometry.num_layers, tokens, last);
}

void PlaneTransfer::send_flows(RequestState& request, const std::vector<net::HostId>& src, int src_tp,
                               int layers, int tokens, bool last) {
  const auto dst = params_.kv_hosts(request, true);
  const std::vector<HeadFlow> flows =
      kv_head_flows(params_.geometry.num_kv_heads, src_tp, params_.tp(request, true));
  const auto count = static_cast<int>(flows.size());
  const std::size_t index = request.pieces.size();
  request.pieces.push_back({layers, tokens, params_.method->decode_after_planes * count,
                            params_.method->num_planes() * count});
  if (last) request.all_sent = true;
  for (const HeadFlow& f : flows) {
    const std::vector<Bytes> bytes = heads_bytes(f.heads, layers, tokens);
    for (std::size_t plane = 0; plane < bytes.size(); ++plane) {
      net::FlowSpec spec;
      spec.src = src[static_cast<std::size_t>(f.src_rank)];
      spec.dst = dst[static_cast<std::size_t>(f.dst_rank)];
      spec.size = bytes[plane];
      spec.priority_class = static_cast<int>(plane);
      if (labels_seen()) {
        spec.label = fmt::format("r{} piece{} plane{} rank{}->{}", request.metrics.id, index, plane,
                                 f.src_rank, f.dst_rank);
      }
      spec.tag = static_cast<std::int64_t>(request.metrics.id);
      spec.order_key = spec.tag;
      start_kv_flow(request, std::move(spec), [this, &request, index, p = static_cast<int>(plane)] {
        on_flow_done(request, index, p);
      });
    }
  }
}

void PlaneTransfer::on_flow_done(RequestState& request, std::size_t piece, int plane) {
  TransferPiece& p = request.pieces[piece];
  const bool speculative = params_.method->speculative();
  if (plane < params_.method->decode_after_planes && --p.needed_flows_left == 0) {
    run_decode_kernel(request, piece, params_.method->decode_after_planes, !speculative);
  }
  if (--p.all_flows_left == 0 && speculative) {
    run_decode_kernel(request, piece, params_.method->num_planes(), true);
  }
}

void PlaneTransfer::run_decode_kernel(RequestState& request, std::size_t piece, int planes, bool full) {
  const TransferPiece& p = request.pieces[piece];
  const auto d = static_cast<std::size_t>(request.metrics.decode_instance);
  Time duration = Time::zero();
  if (params_.method->family != quant::MethodFamily::bf16) {
    const int heads = params_.rank_heads(request, true);
    const std::vector<Bytes> bytes = heads_bytes(heads, p.layers, p.tokens);
    Bytes encoded;
    for (int i = 0; i < planes; ++i) encoded += bytes[static_cast<std::size_t>(i)];
    duration = params_.decode_timing[d]->kernel_time(encoded, bf16_bytes(heads, p.layers, p.tokens),
                                                     p.layers);
  }
  KernelStream& stream = decode_streams_[d];
  const Time start = max(sim_.now(), stream.busy_until());
  const Time end = stream.submit(sim_.now(), duration);
  const bool ready = planes == params_.method->decode_after_planes;
  sim_.schedule_at(end, [this, &request, start, end, ready, full, attempt = request.kv.attempt] {
    sim_.bus().publish(KernelRan{request.metrics.id, "decode",
                                 full && !ready ? "merge" : "dequantize", start, end});
    if (!stale(request, attempt)) piece_decoded(request, ready, full);
  });
}

void PlaneTransfer::piece_decoded(RequestState& request, bool ready, bool full) {
  const auto sent = static_cast<int>(request.pieces.size());
  if (ready && ++request.pieces_ready == sent && request.all_sent) {
    if (!request.kv.ready_signalled) request.metrics.decode_ready_at = sim_.now();
    if (full) request.full_kv = true;
    on_ready_(request);
  }
  if (full && ++request.pieces_full == sent && request.all_sent) {
    request.metrics.full_kv_at = sim_.now();
    request.full_kv = true;
    on_full_(request);
  }
}

}  // namespace lynxsim::serving
