#pragma once
// The KV sender of bf16, the b-bit methods and Lynx (kv_sender.hpp): KV sent as bit planes.
//
// A request's KV leaves its prefill instance in pieces: a range of layers over a number of tokens
// (layer-wise streaming sends one piece per `layers_per_flow` layers of each prefill pass; after-
// prefill streaming one piece holding every layer of the whole context). Once a piece's encode
// kernel has finished on the prefill GPU, every plane of the method leaves every prefill rank as
// its own flow (plane p in priority class p, for every request alike, so a later request's anchor
// overtakes an earlier request's residual) for every (prefill rank, decode rank) pair that shares
// KV heads (kv_head_map.hpp: each decode rank gets the heads it serves, gathered from several
// prefill ranks when the TPs differ; replicated heads go to every decode rank holding them). The
// flow carries exactly the kv_bytes.hpp bytes of its heads for the piece's tokens and layers. On
// the decode GPU, once every flow of the needed planes of a piece is in (all decode ranks):
//   - when the planes decode needs (the first decode_after_planes) of a piece are all in, a
//     decode kernel (unpack + dequantize) runs on that decode instance's KV stream; when the last
//     piece's kernel ends, the request is decode-ready (decode_ready_at);
//   - for a speculative method, when every plane of a piece is in, a merge kernel (unpack all
//     planes + merge + dequantize) runs; when the last piece's merge ends, the full KV is there
//     (full_kv_at). For a non-speculative method full_kv_at = decode_ready_at.
// Kernel times come from the GPU's TimingModel (memory-bound: launches plus bytes over HBM, one
// launch per layer) for the heads one rank of that GPU holds (the encode kernel: the prefill rank's
// heads; decode and merge: the decode rank's, the ranks running in parallel); bf16 runs no
// kernels. The decode-side kernels take the decode GPU's time from its decode steps
// (decode_instance.hpp).
//
// Context loading (serving_config.hpp) sends a cached prefix from a store host straight to the
// decode ranks: one piece of every layer over the cached tokens, sent as above with the store as a
// source of TP 1 (each decode rank receives the heads it holds, kv_head_map.hpp), so the anchor
// leads and decode may start on it. A request loaded for a disaggregated decode keeps these pieces
// when its prefill begins, and its prefill then sends the suffix only.

#include "sim/serving/kv_sender.hpp"

namespace lynxsim::serving {

class PlaneTransfer final : public KvSender {
public:
  PlaneTransfer(Simulator& sim, net::Network& network, KvTransferParams params, Callback on_ready,
                Callback on_full);

  void begin(RequestState& request) const override;
  Time encode_time(const RequestState& request, int layers, int tokens) const override;

protected:
  void send_piece(RequestState& request, int layers, int tokens, bool last) override;
  void load_piece(RequestState& request, net::HostId store, int tokens, bool last) override;

private:
  // The request's bytes per plane for `tokens` sent from a source of TP src_tp.
  void set_plane_bytes(RequestState& request, int src_tp, int tokens) const;
  void send_flows(RequestState& request, const std::vector<net::HostId>& src, int src_tp,
                  int layers, int tokens, bool last);
  void on_flow_done(RequestState& request, std::size_t piece, int plane);
  void run_decode_kernel(RequestState& request, std::size_t piece, int planes, bool full);
  void piece_decoded(RequestState& request, bool ready, bool full);
};

}  // namespace lynxsim::serving
