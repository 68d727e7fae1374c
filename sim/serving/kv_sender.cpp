#include "sim/serving/kv_sender.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <memory>

#include "sim/serving/kv_head_map.hpp"
#include "sim/serving/rank_memory.hpp"

namespace lynxsim::serving {

namespace {

int attention_dp_of(const std::vector<int>& dp, int instance) {
  const auto i = static_cast<std::size_t>(instance);
  return i < dp.size() ? std::max(dp[i], 1) : 1;
}

}  // namespace

int KvTransferParams::tp(const RequestState& request, bool decode) const {
  const auto& hosts = decode ? decode_hosts : prefill_hosts;
  const int instance = decode ? request.metrics.decode_instance : request.metrics.prefill_instance;
  const int dp = attention_dp_of(decode ? decode_attention_dp : prefill_attention_dp, instance);
  return static_cast<int>(hosts[static_cast<std::size_t>(instance)].size()) / dp;
}

std::vector<net::HostId> KvTransferParams::kv_hosts(const RequestState& request, bool decode) const {
  const int instance = decode ? request.metrics.decode_instance : request.metrics.prefill_instance;
  const auto& all = (decode ? decode_hosts : prefill_hosts)[static_cast<std::size_t>(instance)];
  const int dp = attention_dp_of(decode ? decode_attention_dp : prefill_attention_dp, instance);
  if (dp == 1) return all;
  const auto group = all.size() / static_cast<std::size_t>(dp);
  const auto first = static_cast<std::size_t>(dp_rank_of(request.metrics.id, dp)) * group;
  return {all.begin() + static_cast<std::ptrdiff_t>(first), all.begin() + static_cast<std::ptrdiff_t>(first + group)};
}

int KvTransferParams::rank_heads(const RequestState& request, bool decode) const {
  return kv_heads_per_rank(geometry.num_kv_heads, tp(request, decode));
}

KvSender::KvSender(Simulator& sim, net::Network& network, KvTransferParams params, Callback on_ready,
                   Callback on_full)
    : sim_(sim), network_(network), params_(std::move(params)),
      on_ready_([on_ready = std::move(on_ready)](RequestState& request) {
        if (request.kv.ready_signalled) return;
        request.kv.ready_signalled = true;
        on_ready(request);
      }),
      on_full_(std::move(on_full)), decode_streams_(params_.decode_hosts.size()) {}

std::vector<Bytes> KvSender::heads_bytes(int heads, int layers, int tokens) const {
  return piece_plane_bytes(*params_.method, params_.geometry, heads, layers, tokens,
                           params_.measured_size_ratio);
}

Bytes KvSender::bf16_bytes(int heads, int layers, int tokens) const {
  return piece_bf16_bytes(params_.geometry, heads, layers, tokens);
}

void KvSender::reset_pieces(RequestState& request) {
  request.pieces.clear();
  request.all_sent = false;
  request.pieces_ready = 0;
  request.pieces_full = 0;
}

Bytes KvSender::block_bytes(int block_tokens) const {
  const auto tp = static_cast<int>(params_.prefill_hosts.front().size());
  Bytes total;
  for (const Bytes b : total_plane_bytes(*params_.method, params_.geometry, tp, block_tokens,
                                         params_.measured_size_ratio)) {
    total += b;
  }
  return total;
}

void KvSender::fetch_prefix(RequestState& request, net::HostId store, int tokens, std::function<void()> done) {
  const auto dst = params_.kv_hosts(request, false);
  const std::vector<Bytes> bytes =
      heads_bytes(params_.rank_heads(request, false), params_.geometry.num_layers, tokens);
  auto left = std::make_shared<int>(static_cast<int>(bytes.size() * dst.size()));
  auto finish = std::make_shared<std::function<void()>>(std::move(done));
  for (std::size_t plane = 0; plane < bytes.size(); ++plane) {
    for (std::size_t rank = 0; rank < dst.size(); ++rank) {
      net::FlowSpec spec;
      spec.src = store;
      spec.dst = dst[rank];
      spec.size = bytes[plane];
      spec.priority_class = static_cast<int>(plane);
      if (labels_seen()) {
        spec.label = fmt::format("r{} prefix plane{} rank{}", request.metrics.id, plane, rank);
      }
      spec.tag = static_cast<std::int64_t>(request.metrics.id);
      spec.order_key = spec.tag;
      network_.start_flow(std::move(spec), [left, finish](const auto&) {
        if (--*left == 0) (*finish)();
      });
    }
  }
}

}  // namespace lynxsim::serving
