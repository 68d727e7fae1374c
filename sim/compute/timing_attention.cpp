#include <algorithm>

#include "sim/compute/timing_model.hpp"

namespace lynxsim {
namespace {

constexpr double kBf16Bytes = 2.0;
constexpr double kDeltaNetChunk = 64.0;

int ceil_div(int a, int b) { return (a + b - 1) / b; }

double sliding(double value, double cap) { return cap > 0.0 ? std::min(value, cap) : value; }

}  // namespace

Bytes TimingModel::kv_bytes_per_rank(std::int64_t tokens) const {
  if (!layered_attention_) return kv_bytes_per_token_per_rank() * tokens;
  const ModelSpec& m = model_;
  const std::int64_t row = m.attention.mla ? m.kv_bytes_per_token_per_layer_bf16().value
                                           : std::int64_t{2} * kv_heads_per_rank() * m.head_dim * 2;
  const std::int64_t window = m.attention.sliding_window > 0 ? std::min<std::int64_t>(tokens, m.attention.sliding_window) : tokens;
  std::int64_t state = 0;
  if (m.attention.linear) {
    const int heads = m.attention.linear->value_heads;
    state = m.linear_state_bytes_per_layer_bf16().value * ceil_div(heads, tp_) / heads;
  }
  return Bytes{row * tokens * m.layers_of(LayerKind::full) + row * window * m.layers_of(LayerKind::sliding) +
               state * m.layers_of(LayerKind::linear)};
}

double TimingModel::causal_efficiency(double pairs, double causal_queries) const {
  const double extra = hw_.causal_overhead_tokens * causal_queries;
  if (extra <= 0.0 || pairs <= 0.0) return hw_.attention_efficiency;
  return hw_.attention_efficiency * pairs / (pairs + extra);
}

OpTiming TimingModel::layered_attention_op(const PassTotals& t) const {
  const ModelSpec& m = model_;
  const auto kind_op = [&](double pairs, double kv_read) {
    return m.attention.mla ? mla_attention(pairs, kv_read, t.new_tokens, t.causal_queries)
                           : gqa_attention(pairs, kv_read, t.new_tokens, t.causal_queries);
  };
  const double window = m.attention.sliding_window;
  const double layers = m.num_layers;
  const double shares[] = {m.layers_of(LayerKind::full) / layers, m.layers_of(LayerKind::sliding) / layers,
                           m.layers_of(LayerKind::linear) / layers};
  const OpTiming ops[] = {kind_op(t.attention_pairs, t.kv_read_tokens),
                          kind_op(sliding(t.attention_pairs, t.new_tokens * window),
                                  sliding(t.kv_read_tokens, t.sequences * window)),
                          linear_attention(t)};
  OpTiming avg;
  double seconds = 0.0;
  double compute_s = 0.0;
  for (int k = 0; k < 3; ++k) {
    if (shares[k] == 0.0) continue;
    seconds += shares[k] * ops[k].time.seconds();
    avg.flops += shares[k] * ops[k].flops;
    avg.bytes += shares[k] * ops[k].bytes;
    compute_s += (ops[k].bound == Bound::compute ? 1.0 : -1.0) * shares[k] * ops[k].time.seconds();
  }
  avg.time = Time::from_seconds(seconds);
  avg.bound = compute_s > 0.0 ? Bound::compute : Bound::memory;
  return avg;
}

OpTiming TimingModel::mla_attention(double pairs, double kv_read_tokens, double new_tokens,
                                    double causal_queries) const {
  const MlaSpec& a = *model_.attention.mla;
  const double heads = heads_per_rank();
  const double latent = a.kv_lora_rank + a.qk_rope_head_dim;
  const double qk = a.qk_nope_head_dim + a.qk_rope_head_dim;
  const double latent_bytes = kBf16Bytes * latent * (kv_read_tokens + new_tokens);
  const Time floor = new_tokens > 0 ? hw_.attention_floor : Time::zero();
  const double absorbed_flops = 2.0 * heads * (2.0 * a.kv_lora_rank + a.qk_rope_head_dim) * pairs;
  const double absorbed_bytes = latent_bytes + kBf16Bytes * heads * (latent + a.kv_lora_rank) * new_tokens;
  const double efficiency = causal_efficiency(pairs, causal_queries);
  const OpTiming absorbed = roofline(absorbed_flops, absorbed_bytes, efficiency,
                                     hw_.kv_read_efficiency, floor);
  const double expand_flops = 2.0 * a.kv_lora_rank * heads * (a.qk_nope_head_dim + a.v_head_dim) * kv_read_tokens;
  const double expanded_flops = 2.0 * heads * (qk + a.v_head_dim) * pairs + expand_flops;
  const double expanded_bytes = latent_bytes + 2.0 * kBf16Bytes * heads * (qk + a.v_head_dim) * kv_read_tokens;
  const OpTiming expanded = roofline(expanded_flops, expanded_bytes, efficiency,
                                     hw_.kv_read_efficiency, floor);
  return absorbed.time <= expanded.time ? absorbed : expanded;
}

OpTiming TimingModel::linear_attention(const PassTotals& t) const {
  if (!model_.attention.linear) return {};
  const LinearAttentionSpec& l = *model_.attention.linear;
  const double v_heads = ceil_div(l.value_heads, tp_);
  const double k_heads = ceil_div(l.key_heads, tp_);
  const double per_token = v_heads * (4.0 * l.key_head_dim * l.value_head_dim +
                                      2.0 * kDeltaNetChunk * (l.key_head_dim + l.value_head_dim));
  const double state = model_.linear_state_bytes_per_layer_bf16().as_double() * v_heads / l.value_heads;
  const double rows = kBf16Bytes * (2.0 * k_heads * l.key_head_dim + 2.0 * v_heads * l.value_head_dim);
  const double bytes = 2.0 * state * t.sequences + rows * t.new_tokens;
  const Time floor = t.new_tokens > 0 ? hw_.attention_floor : Time::zero();
  return roofline(per_token * t.new_tokens, bytes, hw_.attention_efficiency, hw_.kv_read_efficiency, floor);
}

}  // namespace lynxsim
