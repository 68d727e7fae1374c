#include <fmt/format.h>

#include "sim/serving/kv_sender.hpp"

namespace lynxsim::serving {

void KvSender::send(RequestState& request, int layers, int tokens, bool last) {
  const HeldPiece piece{false, 0, layers, tokens, last};
  if (!ask_ || request.kv_gate == KvGate::admitted) {
    hand_over(request, piece);
    return;
  }
  hold(request, piece);
}

void KvSender::load(RequestState& request, net::HostId store, int tokens, bool last) {
  const HeldPiece piece{true, store, 0, tokens, last};
  if (!ask_ || request.kv_gate == KvGate::admitted) {
    hand_over(request, piece);
    return;
  }
  hold(request, piece);
}

void KvSender::hand_over(RequestState& request, const HeldPiece& piece) {
  if (request.kv.abandoned) return;
  if (timeout_.timeout) request.kv.handed.push_back(piece);
  if (piece.from_store) {
    load_piece(request, piece.store, piece.tokens, piece.last);
  } else {
    send_piece(request, piece.layers, piece.tokens, piece.last);
  }
}

void KvSender::set_admission(TransferInitiator initiator, std::function<void(RequestState&)> ask) {
  initiator_ = initiator;
  ask_ = std::move(ask);
}

void KvSender::hold(RequestState& request, const HeldPiece& piece) {
  request.held_pieces.push_back(piece);
  if (request.kv_gate != KvGate::unasked) return;
  request.kv_gate = KvGate::waiting;
  request.kv_source = piece.from_store ? piece.store : params_.kv_hosts(request, false).front();
  if (initiator_ == TransferInitiator::prefill) {
    ask_(request);
    return;
  }
  control_message(request, request.kv_source, params_.kv_hosts(request, true).front(),
                  [this, &request] { ask_(request); });
}

void KvSender::admitted(RequestState& request) {
  const bool waited = request.metrics.kv_admission_wait > Time::zero();
  if (initiator_ == TransferInitiator::prefill && !waited) {
    release_held(request);
    return;
  }
  control_message(request, params_.kv_hosts(request, true).front(), request.kv_source,
                  [this, &request] { release_held(request); });
}

void KvSender::release_held(RequestState& request) {
  request.kv_gate = KvGate::admitted;
  const std::vector<HeldPiece> held = std::move(request.held_pieces);
  request.held_pieces.clear();
  for (const HeldPiece& p : held) hand_over(request, p);
}

void KvSender::control_message(const RequestState& request, net::HostId from, net::HostId to,
                               std::function<void()> arrived) {
  net::FlowSpec spec;
  spec.src = from;
  spec.dst = to;
  spec.size = Bytes{0};
  if (labels_seen()) spec.label = fmt::format("r{} control", request.metrics.id);
  spec.tag = static_cast<std::int64_t>(request.metrics.id);
  spec.order_key = spec.tag;
  network_.start_flow_with_setup(
      std::move(spec), [arrived = std::move(arrived)](const net::FlowRecord&) { arrived(); }, Time::zero());
}

}  // namespace lynxsim::serving
