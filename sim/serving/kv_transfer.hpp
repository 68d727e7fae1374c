#pragma once
// Moving KV caches between hosts: prefill -> decode for every request, KV store -> prefill for
// cached prefixes.
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
// cachegen sends differently (cachegen_transfer.hpp): nothing leaves during prefill; when the last
// piece is handed over, the whole context goes out in chunks with a per-chunk quality level, and
// encode_time() is zero (its coder runs chunk by chunk on its own stream).
//
// Context loading (serving_config.hpp) sends a cached prefix from a store host straight to the
// decode ranks: one piece of every layer over the cached tokens, sent as above with the store as a
// source of TP 1 (each decode rank receives the heads it holds, kv_head_map.hpp), so the anchor
// leads and decode may start on it. A request loaded for a disaggregated decode keeps these pieces
// when its prefill begins, and its prefill then sends the suffix only.
//
// A prefix fetch moves the cached prefix (every layer, the method's planes, each plane one flow
// per prefill rank from the store host, in the plane's priority class) and completes when every
// flow has arrived: the prefill GPU needs the exact KV to attend to it.

#include <functional>
#include <memory>
#include <vector>

#include "sim/compute/timing_model.hpp"
#include "sim/core/simulator.hpp"
#include "sim/net/network.hpp"
#include "sim/serving/kernel_stream.hpp"
#include "sim/serving/kv_bytes.hpp"
#include "sim/serving/request_state.hpp"
#include "sim/serving/transfer_method.hpp"

namespace lynxsim::serving {

class CacheGenTransfer;

struct KvTransferParams {
  const TransferMethod* method = nullptr;
  KvGeometry geometry;
  double measured_size_ratio = 0.0;
  std::vector<double> cachegen_level_ratios;       // cachegen: per quality level
  std::vector<const TimingModel*> prefill_timing;  // per prefill instance
  std::vector<const TimingModel*> decode_timing;   // per decode instance
  std::vector<std::vector<net::HostId>> prefill_hosts;
  std::vector<std::vector<net::HostId>> decode_hosts;

  // The tensor-parallel degree of the request's decode (or prefill) instance, and the KV heads
  // each of its ranks holds.
  int tp(const RequestState& request, bool decode) const;
  int rank_heads(const RequestState& request, bool decode) const;
};

class KvTransfer {
public:
  using Callback = std::function<void(RequestState&)>;

  KvTransfer(Simulator& sim, net::Network& network, KvTransferParams params, Callback on_ready,
             Callback on_full);
  ~KvTransfer();
  KvTransfer(const KvTransfer&) = delete;
  KvTransfer& operator=(const KvTransfer&) = delete;

  // Resets the request's pieces and sets its bytes per plane (a request whose prefix comes from
  // the store keeps the store's pieces).
  void begin(RequestState& request) const;
  // Duration of the encode kernel of `layers` layers over `tokens` tokens on one prefill rank.
  Time encode_time(const RequestState& request, int layers, int tokens) const;
  // Starts the flows of one piece now; `last` marks the request's final piece.
  void send(RequestState& request, int layers, int tokens, bool last);
  // Loads `tokens` of cached prefix from `store` to the request's decode ranks; `last` when the
  // store's piece is all the request will receive (aggregated serving, which also resets the
  // request's transfer here: it has no prefill instance).
  void load(RequestState& request, net::HostId store, int tokens, bool last);
  // Fetches `tokens` of cached prefix from `store` to the request's prefill ranks.
  void fetch_prefix(RequestState& request, net::HostId store, int tokens,
                    std::function<void()> done);
  // Bytes of one prefix block (every layer, every plane, every rank of prefill instance 0).
  Bytes block_bytes(int block_tokens) const;
  // The KV kernel stream of decode instance `instance`'s GPU (shared with its decode steps).
  KernelStream& decode_stream(std::size_t instance) { return decode_streams_.at(instance); }

private:
  std::vector<Bytes> heads_bytes(int heads, int layers, int tokens) const;
  std::vector<Bytes> rank_bytes(const RequestState& request, int layers, int tokens) const;
  Bytes bf16_bytes(int heads, int layers, int tokens) const;
  static void reset_pieces(RequestState& request);
  // The request's bytes per plane for `tokens` sent from a source of TP src_tp (cachegen: reset).
  void set_plane_bytes(RequestState& request, int src_tp, int tokens) const;
  void send_flows(RequestState& request, const std::vector<net::HostId>& src, int src_tp,
                  int layers, int tokens, bool last);
  void on_flow_done(RequestState& request, std::size_t piece, int plane);
  void run_decode_kernel(RequestState& request, std::size_t piece, int planes, bool full);
  void piece_decoded(RequestState& request, bool ready, bool full);

  Simulator& sim_;
  net::Network& network_;
  KvTransferParams params_;
  Callback on_ready_;
  Callback on_full_;
  std::vector<KernelStream> decode_streams_;
  std::unique_ptr<CacheGenTransfer> cachegen_;
};

}  // namespace lynxsim::serving
