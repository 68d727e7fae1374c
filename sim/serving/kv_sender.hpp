#pragma once
// Moving KV caches between hosts: prefill -> decode for every request, KV store -> prefill or
// decode for cached prefixes. KvSender is what every transfer method offers the serving layer; a
// method family's sender derives from it:
//   - PlaneTransfer (plane_transfer.hpp): bf16, the b-bit methods and Lynx's planes, sent piece by
//     piece as prefill produces layers, every plane its own flow in its own priority class;
//   - CacheGenTransfer (cachegen_transfer.hpp): the whole context in chunks with a per-chunk level.
// make_kv_sender (kv_sender_factory.hpp) picks one by the method's family.
//
// Shared by every sender (this file):
//   - byte counts per KV head group: kv_bytes.hpp's per-layer plane bytes of the method times the
//     layers, and the BF16 size 2 (K, V) x 2 bytes x heads x head_dim x tokens x layers that the
//     encode and decode kernels read or write;
//   - a prefix fetch moves a cached prefix from a store host to the prefill ranks: every layer, the
//     method's planes, each plane one flow per prefill rank in the plane's priority class; it
//     completes when every flow has arrived (the prefill GPU needs the exact KV to attend to it);
//   - one KV kernel stream per decode instance's GPU, shared with its decode steps
//     (decode_instance.hpp), on which the decode-side kernels of every sender run.
// Admission (kv_admission.hpp): with an admission gate set, the pieces of a request are held on
// the prefill side (the store, for a load) until its decode instance admits the transfer; the
// first piece asks for it. With the decode side initiating (pull, vLLM NixlConnector), a control
// message goes from the source to the decode rank before the request is asked about (the KV is
// ready) and one from the decode rank back to the source after it is admitted (the read request);
// with the prefill side initiating (push, SGLang with Mooncake), a control message from the decode
// rank tells the source where to write only when the admission had to wait (otherwise the decode
// instance sent it while prefill ran). A control message is a zero-byte flow without setup cost:
// the path latency of the topology.
// Timeouts (kv_transfer_faults.hpp): every KV flow to decode starts through start_kv_flow, which
// counts its bytes and, with a timeout set, watches the request's transfer.
// A request's decode readiness is reported through on_ready (the first planes decode needs are in
// and decoded: decode_ready_at) and on_full (the full-precision KV is there: full_kv_at).

#include <cstddef>
#include <functional>
#include <vector>

#include "sim/compute/timing_model.hpp"
#include "sim/core/simulator.hpp"
#include "sim/net/network.hpp"
#include "sim/serving/kernel_stream.hpp"
#include "sim/serving/kv_bytes.hpp"
#include "sim/serving/request_state.hpp"
#include "sim/quant/method_spec.hpp"

namespace lynxsim::serving {

struct KvTransferParams {
  const quant::MethodSpec* method = nullptr;
  KvGeometry geometry;
  double measured_size_ratio = 0.0;
  std::vector<double> cachegen_level_ratios;       // cachegen: per quality level
  std::vector<const TimingModel*> prefill_timing;  // per prefill instance
  std::vector<const TimingModel*> decode_timing;   // per decode instance
  std::vector<std::vector<net::HostId>> prefill_hosts;
  std::vector<std::vector<net::HostId>> decode_hosts;
  // Attention data-parallel ranks per instance (empty or 1: tensor-parallel attention). With D of
  // them, request r's KV lives on DP rank r mod D, the contiguous t / D ranks from (r mod D) t / D.
  std::vector<int> prefill_attention_dp;
  std::vector<int> decode_attention_dp;

  // The attention tensor-parallel degree of the request's decode (or prefill) instance (its tp
  // over its attention DP ranks), the hosts of the DP rank that holds the request's KV, and the
  // KV heads each of those ranks holds.
  int tp(const RequestState& request, bool decode) const;
  std::vector<net::HostId> kv_hosts(const RequestState& request, bool decode) const;
  int rank_heads(const RequestState& request, bool decode) const;
};

class KvSender {
public:
  using Callback = std::function<void(RequestState&)>;

  virtual ~KvSender() = default;
  KvSender(const KvSender&) = delete;
  KvSender& operator=(const KvSender&) = delete;

  // Resets the request's transfer state and metrics (a request whose prefix comes from the store
  // keeps the store's pieces).
  virtual void begin(RequestState& request) const = 0;
  // Duration of the encode kernel of `layers` layers over `tokens` tokens on one prefill rank, run
  // before a piece leaves (zero where the method encodes on its own stream or not at all).
  virtual Time encode_time(const RequestState& request, int layers, int tokens) const = 0;
  // Hands over one piece of `layers` layers over `tokens` tokens now; `last` marks the final one.
  void send(RequestState& request, int layers, int tokens, bool last);
  // Loads `tokens` of cached prefix from `store` to the request's decode ranks; `last` when the
  // store's piece is all the request will receive (aggregated serving, which also resets the
  // request's transfer here: it has no prefill instance).
  void load(RequestState& request, net::HostId store, int tokens, bool last);

  // Holds every request's pieces until admitted(); `ask` asks the request's decode instance.
  void set_admission(TransferInitiator initiator, std::function<void(RequestState&)> ask);
  // The request's decode instance admitted its transfer: its held pieces leave.
  void admitted(RequestState& request);

  // Transfer timeouts (kv_transfer_faults.hpp): `fail` ends a request whose retries ran out,
  // `commit_on_anchor` lets a speculative request with its anchor in commit unverified.
  struct FaultHooks {
    Callback fail;
    Callback commit_on_anchor;
  };
  void set_transfer_timeout(const KvTransferSpec& spec, FaultHooks hooks);

  // Fetches `tokens` of cached prefix from `store` to the request's prefill ranks.
  void fetch_prefix(RequestState& request, net::HostId store, int tokens, std::function<void()> done);
  // Bytes of one prefix block (every layer, every plane, every rank of prefill instance 0).
  Bytes block_bytes(int block_tokens) const;
  // The KV kernel stream of decode instance `instance`'s GPU (shared with its decode steps).
  KernelStream& decode_stream(std::size_t instance) { return decode_streams_.at(instance); }

protected:
  virtual void send_piece(RequestState& request, int layers, int tokens, bool last) = 0;
  virtual void load_piece(RequestState& request, net::HostId store, int tokens, bool last) = 0;

  KvSender(Simulator& sim, net::Network& network, KvTransferParams params, Callback on_ready,
           Callback on_full);

  // Wire bytes per plane of `heads` KV heads over `layers` layers and `tokens` tokens.
  std::vector<Bytes> heads_bytes(int heads, int layers, int tokens) const;
  Bytes bf16_bytes(int heads, int layers, int tokens) const;
  static void reset_pieces(RequestState& request);
  // Starts one of the request's KV flows to decode under the transfer timeout; `arrived` runs when
  // its last byte is in (never for a flow the timeout cancels).
  void start_kv_flow(RequestState& request, net::FlowSpec spec, std::function<void()> arrived);
  // Whether work begun in transfer attempt `attempt` belongs to one the timeout abandoned.
  static bool stale(const RequestState& request, int attempt) { return request.kv.attempt != attempt; }
  // Whether a flow's label can be seen (an observer of flows is subscribed); labels are formatted
  // only then.
  bool labels_seen() const {
    const ObserverBus& bus = sim_.bus();
    return bus.has_subscribers<net::FlowStarted>() || bus.has_subscribers<net::FlowFinished>();
  }

  Simulator& sim_;
  net::Network& network_;
  KvTransferParams params_;
  Callback on_ready_;
  Callback on_full_;
  std::vector<KernelStream> decode_streams_;

private:
  void hand_over(RequestState& request, const HeldPiece& piece);
  void arm(RequestState& request);
  void timed_out(RequestState& request, int attempt);
  Bytes cancel_flows(RequestState& request);
  void resend(RequestState& request);
  void reprefill(RequestState& request);
  void hold(RequestState& request, const HeldPiece& piece);
  void release_held(RequestState& request);
  void control_message(const RequestState& request, net::HostId from, net::HostId to,
                       std::function<void()> arrived);

  std::function<void(RequestState&)> ask_;
  TransferInitiator initiator_ = TransferInitiator::prefill;
  KvTransferSpec timeout_;
  FaultHooks hooks_;
};

}  // namespace lynxsim::serving
