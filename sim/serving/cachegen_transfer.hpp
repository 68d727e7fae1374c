#pragma once
// CacheGen's chunked, adaptive KV transfer (Liu et al., SIGCOMM 2024) for one prefill -> decode
// request.
//
// Chunks. The context of T tokens is cut into K = ceil(T / C) chunks of C = chunk_tokens tokens
// (the last one shorter). A chunk holds every layer of its tokens: CacheGen codes whole chunks of
// tokens across layers, so the transfer starts once prefill has produced every layer (it ignores
// layer-wise streaming; both streaming modes behave alike for cachegen and the prefill GPU runs no
// per-layer encode kernel).
//
// Sizes. A chunk goes out as one flow per (prefill rank, decode rank) pair sharing KV heads
// (kv_head_map.hpp), in priority class 0. A flow carrying H KV heads of dimension d for chunk k of
// n_k tokens at level l has
//   bytes(k, l) = round(2 * 2 * H * d * n_k * L * r_l)
// with r_l the measured ratio to BF16 of level l (MethodQuality::cachegen_level_ratios, measured by
// encoding real tensors with the real codec). The text fallback sends the chunk's token ids,
// 4 * n_k bytes per flow.
//
// Adaptation (quant::CacheGenAdapter). The ladder is the levels from the method's cachegen_level
// down to the coarsest. Chunks are sent one after another; before chunk k the sender picks the
// highest-quality level whose bytes (summed over ranks) fit bw * budget, where bw is the bandwidth
// it measured on the previous chunk, (bytes of the chunk over all ranks) / (time from the chunk's
// send to the arrival of its last flow), and budget = (SLO - transfer time so far) / chunks left;
// the first chunk uses initial_bandwidth. When no level fits it sends the text. A text chunk counts
// toward the elapsed time but does not replace the bandwidth estimate: a few kilobytes measure the
// per-transfer setup and latency rather than the path's bandwidth, and would otherwise pin every
// later chunk to text. Because the estimate comes from the previous chunk, a change of link rate
// (bandwidth traces, contention) shows in the choice one chunk later.
//
// Costs and pipelining. CacheGen encodes each chunk into every level of its ladder ahead of sending
// (the level is only chosen when the previous chunk has arrived), so encoding chunk k costs
//   encode(k) = (ladder size) * 2*2*H*d*n_k*L bytes / encode_mb_per_s
// on the prefill GPU's coder stream, chunk after chunk from the end of prefill; chunk k is sent
// when it is encoded and chunk k-1 has arrived, so the encode of k+1 overlaps the transfer of k.
// On arrival the decode GPU's KV stream runs either the decoder, 2*2*H*d*n_k*L / decode_mb_per_s,
// or, for a text chunk, the recomputation of the chunk: TimingModel::pass over {n_k new tokens,
// offset_k cached} with no logits, so decode of chunk k overlaps the transfer of k+1.
// decode_ready_at (= full_kv_at; cachegen is not speculative) is the end of the last chunk's decode.
//
// Context loading (serving_config.hpp) sends a cached prefix from a store host the same way, with
// the store as a source of TP 1: the store holds every chunk already encoded at every level of the
// ladder (CacheGen's storage format), so chunks go out back to back with no encode time.
//
// Assumptions: the encoder stream runs beside prefill passes without slowing them (CacheGen's coder
// is a light kernel). The decoder and the recomputation run on the decode GPU's KV stream, which
// the decode steps share: a step pauses while they run (decode_instance.hpp).

#include <memory>
#include <unordered_map>
#include <vector>

#include "sim/quant/cachegen_adapt.hpp"
#include "sim/serving/kv_head_map.hpp"
#include "sim/serving/kv_sender.hpp"

namespace lynxsim::serving {

class CacheGenTransfer final : public KvSender {
public:
  // params.cachegen_level_ratios (or, when empty, params.measured_size_ratio as one level) must be
  // positive; throws std::invalid_argument otherwise.
  CacheGenTransfer(Simulator& sim, net::Network& network, KvTransferParams params, Callback on_ready,
                   Callback on_full);

  // Resets the request's pieces and CacheGen metrics.
  void begin(RequestState& request) const override;
  // Zero: the coder runs chunk by chunk on its own stream once the last piece is handed over.
  Time encode_time(const RequestState& request, int layers, int tokens) const override;
  // The level ratios in use, index = level (levels above the method's best level included).
  const std::vector<double>& level_ratios() const { return ratios_; }

protected:
  // Starts encoding and sending the request's whole context when the last piece is handed over.
  void send_piece(RequestState& request, int layers, int tokens, bool last) override;
  // Starts sending `tokens` of cached prefix, stored encoded, from `store` to the decode ranks.
  void load_piece(RequestState& request, net::HostId store, int tokens, bool last) override;

private:
  struct Pipeline {
    quant::CacheGenAdapter adapter;
    int num_chunks = 0;
    int tokens = 0;
    std::vector<net::HostId> src;
    int src_tp = 1;
    int encoded = 0;
    int next_to_send = 0;
    int decoded = 0;
    bool sending = false;
  };

  void open_pipeline(RequestState& request, int tokens, std::vector<net::HostId> src, int src_tp);
  int chunk_tokens(const Pipeline& pipeline, int chunk) const;
  Bytes flow_bytes(const HeadFlow& flow, int tokens, const quant::ChunkChoice& choice) const;
  quant::ChunkChoice choose(RequestState& request, Pipeline& pipeline, int tokens,
                            const std::vector<HeadFlow>& flows) const;
  void try_send(RequestState& request);
  void send_chunk(RequestState& request, Pipeline& pipeline);
  void chunk_arrived(RequestState& request, int chunk, const quant::ChunkChoice& choice,
                     Time sent_at);
  void decode_chunk(RequestState& request, int chunk, bool text);
  void chunk_decoded(RequestState& request);

  void reset_metrics(RequestState& request) const;
  void start(RequestState& request);

  std::vector<double> ratios_;
  std::vector<KernelStream> encode_streams_;
  std::unordered_map<std::uint64_t, std::unique_ptr<Pipeline>> pipelines_;
};

}  // namespace lynxsim::serving
