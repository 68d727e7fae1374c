#include "sim/serving/cachegen_transfer.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

#include "sim/serving/serving_events.hpp"

namespace lynxsim::serving {
namespace {

std::vector<double> ladder_ratios(const KvTransferParams& p) {
  std::vector<double> ratios = p.cachegen_level_ratios;
  if (ratios.empty() && p.measured_size_ratio > 0.0) ratios.push_back(p.measured_size_ratio);
  if (ratios.empty()) {
    throw std::invalid_argument("cachegen needs measured level sizes (accuracy::run_cachegen_sizes)");
  }
  for (const double r : ratios) {
    if (!(r > 0.0)) throw std::invalid_argument("cachegen level size ratios must be > 0");
  }
  return ratios;
}

Time coder_time(Bytes bf16, double mb_per_s) {
  return Time::from_seconds(bf16.as_double() / (mb_per_s * 1e6));
}

KvTransferParams with_best_level_ratio(KvTransferParams params) {
  const auto level = static_cast<std::size_t>(params.method->cachegen_level);
  if (params.measured_size_ratio <= 0.0 && level < params.cachegen_level_ratios.size()) {
    params.measured_size_ratio = params.cachegen_level_ratios[level];
  }
  return params;
}

}  // namespace

CacheGenTransfer::CacheGenTransfer(Simulator& sim, net::Network& network, KvTransferParams params,
                                   Callback on_ready, Callback on_full)
    : KvSender(sim, network, with_best_level_ratio(std::move(params)), std::move(on_ready), std::move(on_full)),
      ratios_(ladder_ratios(params_)), encode_streams_(params_.prefill_hosts.size()) {
  if (params_.method->cachegen_level >= static_cast<int>(ratios_.size()) && ratios_.size() > 1) {
    throw std::invalid_argument(fmt::format("cachegen level {} has no measured size ({} levels)",
                                            params_.method->cachegen_level, ratios_.size()));
  }
}

int CacheGenTransfer::chunk_tokens(const Pipeline& pipeline, int chunk) const {
  const int c = params_.method->cachegen.chunk_tokens;
  return std::min(c, pipeline.tokens - chunk * c);
}

Bytes CacheGenTransfer::flow_bytes(const HeadFlow& flow, int tokens, const quant::ChunkChoice& choice) const {
  if (choice.text) return Bytes{4LL * tokens};
  const double bf16 = bf16_bytes(flow.heads, params_.geometry.num_layers, tokens).as_double();
  return Bytes{std::llround(bf16 * ratios_[static_cast<std::size_t>(choice.level)])};
}

void CacheGenTransfer::begin(RequestState& request) const {
  if (!request.prefix_from_store) reset_pieces(request);
  reset_metrics(request);
}

Time CacheGenTransfer::encode_time(const RequestState&, int, int) const { return Time::zero(); }

void CacheGenTransfer::send_piece(RequestState& request, int, int, bool last) {
  request.all_sent = request.all_sent || last;
  if (last) start(request);
}

void CacheGenTransfer::reset_metrics(RequestState& request) const {
  request.metrics.plane_bytes = {Bytes{0}};
  request.metrics.cachegen_chunks_per_level.assign(ratios_.size(), 0);
  request.metrics.cachegen_text_chunks = 0;
}

void CacheGenTransfer::open_pipeline(RequestState& request, int tokens,
                                     std::vector<net::HostId> src, int src_tp) {
  const quant::CacheGenParams& c = params_.method->cachegen;
  const int chunks = (tokens + c.chunk_tokens - 1) / c.chunk_tokens;
  auto pipeline = std::make_unique<Pipeline>(Pipeline{
      quant::CacheGenAdapter(c.slo_s, static_cast<std::size_t>(chunks), c.initial_bandwidth_bytes_per_s),
      chunks, tokens, std::move(src), src_tp});
  pipelines_[request.metrics.id] = std::move(pipeline);
}

void CacheGenTransfer::load_piece(RequestState& request, net::HostId store, int tokens, bool last) {
  if (request.aggregated) {
    reset_pieces(request);
    reset_metrics(request);
  }
  request.all_sent = request.all_sent || last;
  open_pipeline(request, tokens, {store}, 1);
  Pipeline& pipeline = *pipelines_.at(request.metrics.id);
  pipeline.encoded = pipeline.num_chunks;
  try_send(request);
}

void CacheGenTransfer::start(RequestState& request) {
  const quant::CacheGenParams& c = params_.method->cachegen;
  const auto p = static_cast<std::size_t>(request.metrics.prefill_instance);
  open_pipeline(request, request.metrics.context_tokens, params_.kv_hosts(request, false),
                params_.tp(request, false));
  const int chunks = pipelines_.at(request.metrics.id)->num_chunks;
  const auto best = static_cast<std::size_t>(std::min<int>(params_.method->cachegen_level,
                                                           static_cast<int>(ratios_.size()) - 1));
  const auto levels = static_cast<std::int64_t>(ratios_.size() - best);
  for (int k = 0; k < chunks; ++k) {
    const Bytes bf16 = bf16_bytes(params_.rank_heads(request, false), params_.geometry.num_layers,
                                  chunk_tokens(*pipelines_.at(request.metrics.id), k));
    const Time duration = coder_time(bf16 * levels, c.encode_mb_per_s);
    const Time start = max(sim_.now(), encode_streams_[p].busy_until());
    const Time end = encode_streams_[p].submit(sim_.now(), duration);
    sim_.schedule_at(end, [this, &request, start, end] {
      sim_.bus().publish(KernelRan{request.metrics.id, "prefill", "cachegen-encode", start, end});
      ++pipelines_.at(request.metrics.id)->encoded;
      try_send(request);
    });
  }
}

void CacheGenTransfer::try_send(RequestState& request) {
  Pipeline& pipeline = *pipelines_.at(request.metrics.id);
  if (pipeline.sending || pipeline.next_to_send >= pipeline.encoded) return;
  send_chunk(request, pipeline);
}

quant::ChunkChoice CacheGenTransfer::choose(RequestState& request, Pipeline& pipeline, int tokens,
                                           const std::vector<HeadFlow>& flows) const {
  const auto best = std::min<int>(params_.method->cachegen_level, static_cast<int>(ratios_.size()) - 1);
  std::vector<std::uint64_t> level_bytes;
  for (int l = best; l < static_cast<int>(ratios_.size()); ++l) {
    std::uint64_t sum = 0;
    const quant::ChunkChoice level{false, l};
    for (const HeadFlow& f : flows) sum += static_cast<std::uint64_t>(flow_bytes(f, tokens, level).value);
    level_bytes.push_back(sum);
  }
  const auto text = static_cast<std::uint64_t>(4 * tokens) * flows.size();
  quant::ChunkChoice choice = pipeline.adapter.choose_next(level_bytes, text);
  if (!choice.text) choice.level += best;
  auto& m = request.metrics;
  if (choice.text) ++m.cachegen_text_chunks;
  else ++m.cachegen_chunks_per_level[static_cast<std::size_t>(choice.level)];
  return choice;
}

void CacheGenTransfer::send_chunk(RequestState& request, Pipeline& pipeline) {
  const int chunk = pipeline.next_to_send++;
  pipeline.sending = true;
  const int tokens = chunk_tokens(pipeline, chunk);
  const auto& src = pipeline.src;
  const auto dst = params_.kv_hosts(request, true);
  const std::vector<HeadFlow> flows =
      kv_head_flows(params_.geometry.num_kv_heads, pipeline.src_tp, params_.tp(request, true));
  const quant::ChunkChoice choice = choose(request, pipeline, tokens, flows);
  auto& m = request.metrics;
  auto left = std::make_shared<std::int64_t>(static_cast<std::int64_t>(flows.size()));
  const Time sent_at = sim_.now();
  for (const HeadFlow& f : flows) {
    net::FlowSpec spec;
    spec.src = src[static_cast<std::size_t>(f.src_rank)];
    spec.dst = dst[static_cast<std::size_t>(f.dst_rank)];
    spec.size = flow_bytes(f, tokens, choice);
    m.plane_bytes.front() += spec.size;
    if (labels_seen()) {
      spec.label = fmt::format("r{} cachegen chunk{} {} rank{}->{}", m.id, chunk,
                               choice.text ? std::string("text") : fmt::format("level{}", choice.level),
                               f.src_rank, f.dst_rank);
    }
    spec.tag = static_cast<std::int64_t>(m.id);
    start_kv_flow(request, std::move(spec), [this, &request, chunk, choice, sent_at, left] {
      if (--*left == 0) chunk_arrived(request, chunk, choice, sent_at);
    });
  }
}

void CacheGenTransfer::chunk_arrived(RequestState& request, int chunk, const quant::ChunkChoice& choice,
                                     Time sent_at) {
  Pipeline& pipeline = *pipelines_.at(request.metrics.id);
  pipeline.adapter.record_sent(choice.text ? 0 : choice.bytes, (sim_.now() - sent_at).seconds());
  pipeline.sending = false;
  decode_chunk(request, chunk, choice.text);
  try_send(request);
}

void CacheGenTransfer::decode_chunk(RequestState& request, int chunk, bool text) {
  const auto d = static_cast<std::size_t>(request.metrics.decode_instance);
  const int tokens = chunk_tokens(*pipelines_.at(request.metrics.id), chunk);
  Time duration;
  if (text) {
    const SequenceChunk seq{tokens, chunk * params_.method->cachegen.chunk_tokens};
    duration = params_.decode_timing[d]->pass(std::span<const SequenceChunk>(&seq, 1), 0).time;
  } else {
    duration = coder_time(bf16_bytes(params_.rank_heads(request, true), params_.geometry.num_layers, tokens),
                          params_.method->cachegen.decode_mb_per_s);
  }
  KernelStream& stream = decode_streams_[d];
  const Time start = max(sim_.now(), stream.busy_until());
  const Time end = stream.submit(sim_.now(), duration);
  sim_.schedule_at(end, [this, &request, start, end, text] {
    sim_.bus().publish(KernelRan{request.metrics.id, "decode",
                                 text ? "cachegen-recompute" : "cachegen-decode", start, end});
    chunk_decoded(request);
  });
}

void CacheGenTransfer::chunk_decoded(RequestState& request) {
  auto it = pipelines_.find(request.metrics.id);
  if (++it->second->decoded < it->second->num_chunks) return;
  pipelines_.erase(it);
  request.metrics.decode_ready_at = sim_.now();
  request.metrics.full_kv_at = sim_.now();
  request.full_kv = true;
  on_ready_(request);
  on_full_(request);
}

}  // namespace lynxsim::serving
