// Data-parallel attention and expert parallelism in the timing model (timing_model.hpp, "Data-
// parallel attention and expert parallelism"; the layout and all-to-all in expert_parallel.hpp).

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "sim/compute/timing_model.hpp"

namespace lynxsim {
namespace {

constexpr double kBf16Bytes = 2.0;
constexpr int kGemmKernels = 4;

// Attention projections of one layer, averaged over the layers.
double attention_params_per_layer(const ModelSpec& m) {
  const double sum = m.attention_params(LayerKind::full) * (m.layers_of(LayerKind::full) + m.layers_of(LayerKind::sliding)) +
                     m.attention_params(LayerKind::linear) * m.layers_of(LayerKind::linear);
  return sum / m.num_layers;
}

Bytes activation_rows(double tokens, int hidden) {
  return Bytes{std::llround(kBf16Bytes * tokens * hidden)};
}

}  // namespace

void TimingModel::set_parallel_layout(const ExpertParallelLayout& layout) {
  check_layout(layout, tp_, model_.moe.has_value());
  layout_ = layout;
  set_heads_per_rank();
  memo_.clear();
  sparse_memo_.clear();
  split_kv_memo_.clear();
  chain_slots_.assign(chain_slots_.size(), ChainSlot{});
  dense_chains_.clear();
}

PassTotals TimingModel::busiest_dp_rank(const PassTotals& t) const {
  const int d = layout_.attention_dp;
  if (d == 1 || t.sequences <= 1) return t;
  PassTotals busy;
  busy.sequences = (t.sequences + d - 1) / d;
  const double share = static_cast<double>(busy.sequences) / t.sequences;
  busy.new_tokens = static_cast<int>(std::ceil(t.new_tokens * share));
  busy.attention_pairs = t.attention_pairs * share;
  busy.kv_read_tokens = t.kv_read_tokens * share;
  busy.causal_queries = t.causal_queries * share;
  busy.prefill = t.prefill;
  return busy;
}

OpTiming TimingModel::parallel_linear_op(double tokens, double busiest_tokens) const {
  const ModelSpec& m = model_;
  const double a = attention_tp();
  const double attention = attention_params_per_layer(m);
  const double ffn = m.active_linear_params_per_layer() - attention;
  const double ffn_read = m.read_linear_params_per_layer(tokens) - attention;
  const double imbalance = layout_.expert_parallel > 1 ? layout_.load_imbalance : 1.0;
  const double flops = 2.0 * (busiest_tokens * attention / a + imbalance * tokens * ffn / tp_);
  const double attention_width = (2.0 * m.num_heads + 2.0 * m.num_kv_heads) * m.head_dim;
  const double activations = kBf16Bytes * (busiest_tokens * (4.0 * m.hidden_size + attention_width / a) +
                                           imbalance * tokens * 3.0 * m.ffn_dim / tp_);
  if (!uniform_weights_) return mixed_linear_op(busiest_tokens, a, imbalance * tokens, tokens, activations);
  const double weights = part_bytes_.attention * (attention / a + ffn_read / tp_);
  return roofline(flops, weights + activations, gemm_efficiency(busiest_tokens) * part_rates_.attention, hw_.memory_efficiency,
                  hw_.kernel_floor * kGemmKernels);
}

Time TimingModel::expert_exchange_time(int busiest_tokens) const {
  const int hidden = model_.hidden_size;
  if (layout_.expert_parallel <= 1) return tp_allreduce(tp_, activation_rows(busiest_tokens, hidden));
  const int per_rank = (busiest_tokens + attention_tp() - 1) / attention_tp();
  if (layout_.scale_out_flows) {
    return expert_parallel_traffic(hw_, model_, layout_.expert_parallel, per_rank, layout_.load_imbalance,
                                   layout_.node_gpus)
        .latency;
  }
  return expert_parallel_layer_time(hw_, model_, layout_.expert_parallel, per_rank, layout_.load_imbalance,
                                    layout_.node_gpus);
}

ExpertTraffic TimingModel::expert_traffic(std::span<const SequenceChunk> chunks) const {
  if (layout_.expert_parallel <= 1) return {};
  const PassTotals busy = busiest_dp_rank(totals_of(chunks));
  const int per_rank = (busy.new_tokens + attention_tp() - 1) / attention_tp();
  ExpertTraffic t = expert_parallel_traffic(hw_, model_, layout_.expert_parallel, per_rank,
                                            layout_.load_imbalance, layout_.node_gpus);
  const double moe_share = static_cast<double>(model_.moe_layers()) / model_.num_layers;
  t.in_node_s *= moe_share;
  t.pair_bytes *= moe_share;
  t.latency = Time::from_seconds(moe_share * t.latency.seconds());
  return t;
}

LayerBreakdown TimingModel::parallel_layer(const PassTotals& totals) const {
  const PassTotals busy = busiest_dp_rank(totals);
  LayerBreakdown layer;
  layer.linear = parallel_linear_op(totals.new_tokens, busy.new_tokens);
  layer.attention = attention_op(busy);
  layer.elementwise = elementwise_op(busy.new_tokens);
  const int hidden = model_.hidden_size;
  const double moe_share = static_cast<double>(model_.moe_layers()) / model_.num_layers;
  const Time all_rows = tp_allreduce(tp_, activation_rows(totals.new_tokens, hidden));
  const Time exchange = layout_.expert_parallel > 1 ? expert_exchange_time(busy.new_tokens) : all_rows;
  layer.allreduce_time = tp_allreduce(attention_tp(), activation_rows(busy.new_tokens, hidden)) +
                         Time::from_seconds(moe_share * exchange.seconds() + (1.0 - moe_share) * all_rows.seconds());
  layer.overhead_time = additive_layer_overhead();
  layer.host_time = layer_host_time(totals);
  return layer;
}

Bytes TimingModel::parallel_weight_bytes() const {
  const ModelSpec& m = model_;
  const double attention = attention_params_per_layer(m) * m.num_layers;
  const double layers = m.linear_params_per_layer() * m.num_layers;
  const double held = part_bytes_.attention * ((layers - attention) / tp_ + attention / attention_tp());
  return Bytes{static_cast<std::int64_t>(held + kBf16Bytes * m.lm_head_params() / tp_)};
}

}  // namespace lynxsim
