#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/compute/timing_model.hpp"

namespace lynxsim {
namespace {

constexpr double kBf16Bytes = 2.0;
// Products that differ by more than their rounding errors keep their order after division.
constexpr double kSurelyBelow = 1.0 - 1e-9;
// KV lengths below this are exact doubles, so ceil(ceil(kv / n) / block) = ceil(kv / (n * block)).
constexpr std::int64_t kExactTokens = std::int64_t{1} << 52;

}  // namespace

TimingModel::DecodeSteps TimingModel::decode_steps(int sequences) const {
  if (sequences < 1) throw std::invalid_argument("decode steps need at least one sequence");
  DecodeSteps d;
  d.timing_ = this;
  d.sequences_ = sequences;
  const TokenCosts& costs = token_costs(sequences);
  d.layer_fixed_ = costs.layer_fixed;
  d.host_ = layer_host_time(PassTotals{});
  d.tail_ = costs.lm_head.time + step_cost(sequences, 0.0);
  d.gqa_ = layout_.trivial() && !layered_attention_;
  const double hd = model_.head_dim;
  const double new_tokens = sequences;
  d.flops_per_pair_ = 4.0 * hd * heads_per_rank();
  d.kv_row_bytes_ = 2.0 * kBf16Bytes * hd * kv_heads_per_rank();
  d.query_bytes_ = 2.0 * kBf16Bytes * hd * heads_per_rank() * new_tokens;
  d.compute_rate_ = hw_.peak_bf16.value * hw_.attention_efficiency;
  d.memory_rate_ = hw_.hbm_bandwidth.value * hw_.kv_read_efficiency;
  return d;
}

Time TimingModel::DecodeSteps::time(std::int64_t kv_lengths) const {
  const double held = static_cast<double>(kv_lengths + sequences_);
  const auto& engine = timing_->engine_;
  const Time tail = engine ? tail_ + engine->context_cost(held) : tail_;
  if (gqa_) return max(host_, layer_fixed_ + gqa_attention(kv_lengths)) * timing_->model_.num_layers + tail;
  PassTotals plain;
  plain.sequences = sequences_;
  plain.new_tokens = sequences_;
  plain.attention_pairs = static_cast<double>(kv_lengths) + 0.5 * static_cast<double>(sequences_);
  plain.kv_read_tokens = held;
  if (!timing_->layout_.trivial()) return timing_->pass_time(plain, sequences_);
  return max(host_, layer_fixed_ + timing_->attention_op(plain).time) * timing_->model_.num_layers + tail;
}

Time TimingModel::DecodeSteps::gqa_attention(std::int64_t kv_lengths) const {
  const TimingModel& t = *timing_;
  const double new_tokens = sequences_;
  const double pairs = static_cast<double>(kv_lengths) + 0.5 * new_tokens;
  const double kv_read_tokens = static_cast<double>(kv_lengths + sequences_);
  const double flops = flops_per_pair_ * pairs;
  const double bytes = kv_row_bytes_ * (kv_read_tokens + new_tokens) + query_bytes_;
  const double memory_s = bytes / memory_rate_;
  const bool memory_bound = flops * memory_rate_ < kSurelyBelow * (bytes * compute_rate_);
  const double seconds = memory_bound ? memory_s : std::max(flops / compute_rate_, memory_s);
  const Time floor = t.hw_.attention_floor;
  const Time roofline = Time::from_seconds(seconds) + floor;
  if (t.hw_.sm_count <= 0 || pairs != kv_read_tokens - 0.5 * new_tokens) return roofline;
  return std::max(roofline, chain(kv_lengths + sequences_, kv_read_tokens) + floor);
}

Time TimingModel::DecodeSteps::chain(std::int64_t kv_read, double kv_read_tokens) const {
  if (kv_read > chain_after_ && kv_read <= chain_until_) return chain_;
  const TimingModel& t = *timing_;
  const int context = static_cast<int>(std::ceil(kv_read_tokens / sequences_));
  const int shift = t.split_kv_block_shift_;
  const std::int64_t blocks = (context + (1 << shift) - 1) >> shift;
  const std::int64_t span = static_cast<std::int64_t>(sequences_) << shift;
  chain_ = t.split_kv_chain(sequences_, context, context);
  chain_after_ = (blocks - 1) * span;
  chain_until_ = kv_read < kExactTokens ? blocks * span : chain_after_;
  return chain_;
}

}  // namespace lynxsim
