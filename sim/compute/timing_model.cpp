#include "sim/compute/timing_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "sim/compute/split_kv.hpp"

namespace lynxsim {
namespace {

constexpr double kBf16Bytes = 2.0;
constexpr int kGemmKernels = 4;
constexpr int kElementwiseKernels = 6;

int ceil_div(int a, int b) { return (a + b - 1) / b; }

void check_model(const ModelSpec& m) {
  const int dims[] = {m.num_layers, m.hidden_size, m.num_heads, m.num_kv_heads,
                      m.head_dim,   m.ffn_dim,     m.vocab_size};
  if (std::any_of(std::begin(dims), std::end(dims), [](int d) { return d <= 0; })) {
    throw std::invalid_argument(
        fmt::format("model {}: every dimension must be positive", m.name));
  }
}

void check_hardware(const HardwareSpec& hw) {
  const double positive[] = {hw.peak_bf16.value,          hw.hbm_bandwidth.value,
                             hw.compute_efficiency,       hw.memory_efficiency,
                             hw.attention_efficiency,     hw.kernel_memory_efficiency,
                             hw.scale_up_bandwidth.value, hw.elementwise_efficiency,
                             hw.kv_read_efficiency,       hw.scale_up_efficiency};
  if (std::any_of(std::begin(positive), std::end(positive), [](double v) { return !(v > 0.0); }) ||
      !(hw.gemm_half_tokens >= 0.0)) {
    throw std::invalid_argument(fmt::format(
        "hardware {}: peaks, bandwidths and efficiencies must be positive", hw.name));
  }
}

Bound dominant(std::initializer_list<OpTiming> ops) {
  double compute_s = 0.0;
  double memory_s = 0.0;
  for (const OpTiming& op : ops) {
    (op.bound == Bound::compute ? compute_s : memory_s) += op.time.seconds();
  }
  return compute_s > memory_s ? Bound::compute : Bound::memory;
}

OpTiming scaled(const OpTiming& op, int k) {
  return {op.time * k, op.flops * k, op.bytes * k, op.bound};
}

}  // namespace

const char* to_string(Bound bound) { return bound == Bound::compute ? "compute" : "memory"; }

Time LayerBreakdown::total_time() const {
  return max(host_time, linear.time + attention.time + elementwise.time + allreduce_time + overhead_time);
}

Bound LayerBreakdown::bound() const { return dominant({linear, attention, elementwise}); }

TimingModel::TimingModel(ModelSpec model, HardwareSpec hw, int tensor_parallel,
                         std::optional<EngineSpec> engine)
    : model_(std::move(model)), hw_(std::move(hw)), tp_(tensor_parallel), engine_(std::move(engine)),
      layered_attention_(model_.attention.mla || !model_.attention.layer_pattern.empty()) {
  if (tp_ < 1) throw std::invalid_argument("tensor_parallel must be at least 1");
  check_model(model_);
  check_hardware(hw_);
  set_precision();
  set_heads_per_rank();
  const int block = split_kv_block_tokens(model_.head_dim);
  split_kv_block_shift_ = std::countr_zero(static_cast<unsigned>(block));
  if (block != 1 << split_kv_block_shift_) {
    throw std::logic_error("split-KV blocks must be a power of two tokens");
  }
}

void TimingModel::set_heads_per_rank() {
  heads_per_rank_ = ceil_div(model_.num_heads, attention_tp());
  kv_heads_per_rank_ = ceil_div(model_.num_kv_heads, attention_tp());
}

int TimingModel::kv_replication() const {
  return tp_ > model_.num_kv_heads ? ceil_div(tp_, model_.num_kv_heads) : 1;
}

Bytes TimingModel::kv_bytes_per_token_per_rank() const {
  if (layered_attention_) return kv_bytes_per_rank(1) - kv_bytes_per_rank(0);
  return Bytes{std::int64_t{2} * kv_heads_per_rank() * model_.head_dim * 2 * model_.num_layers};
}

Bytes TimingModel::weight_bytes_per_rank() const {
  if (!uniform_weights_) return mixed_weight_bytes();
  if (!layout_.trivial()) return parallel_weight_bytes();
  const double layers = model_.linear_params_per_layer() * model_.num_layers * part_bytes_.attention;
  return Bytes{static_cast<std::int64_t>((layers + kBf16Bytes * model_.lm_head_params()) / tp_)};
}

OpTiming TimingModel::roofline(double flops, double bytes, double compute_efficiency,
                              double memory_efficiency, Time floor) const {
  const double compute_s = flops / (hw_.peak_bf16.value * compute_efficiency);
  const double memory_s = bytes / (hw_.hbm_bandwidth.value * memory_efficiency);
  const Bound bound = compute_s > memory_s ? Bound::compute : Bound::memory;
  return {Time::from_seconds(std::max(compute_s, memory_s)) + floor, flops, bytes, bound};
}

double TimingModel::gemm_efficiency(double rows) const {
  if (!(rows > 0.0)) return hw_.compute_efficiency;
  return hw_.compute_efficiency * rows / (rows + hw_.gemm_half_tokens);
}

OpTiming TimingModel::linear_op(double tokens) const {
  const ModelSpec& m = model_;
  const double sharded_width = (2.0 * m.num_heads + 2.0 * m.num_kv_heads) * m.head_dim + 3.0 * m.ffn_dim;
  const double activations = kBf16Bytes * tokens * (4.0 * m.hidden_size + sharded_width / tp_);
  if (!uniform_weights_) return mixed_linear_op(tokens, tp_, tokens, tokens, activations);
  const double params = model_.active_linear_params_per_layer() / tp_;
  const double read = model_.read_linear_params_per_layer(tokens) / tp_;
  return roofline(2.0 * tokens * params, part_bytes_.attention * read + activations,
                  gemm_efficiency(tokens) * part_rates_.attention,
                  hw_.memory_efficiency, hw_.kernel_floor * kGemmKernels);
}

PassTotals TimingModel::totals_of(std::span<const SequenceChunk> chunks) {
  PassTotals totals;
  for (const SequenceChunk& c : chunks) {
    if (c.new_tokens < 0 || c.cached_tokens < 0) {
      throw std::invalid_argument("token counts must not be negative");
    }
    totals.add(c);
    totals.prefill = totals.prefill || c.new_tokens > 1;
  }
  return totals;
}

Time TimingModel::additive_layer_overhead() const { return engine_ ? Time::zero() : hw_.layer_overhead; }

Time TimingModel::step_cost(int sequences, double context_tokens) const {
  return engine_ ? engine_->step_time(sequences, tp_, context_tokens) : hw_.step_overhead;
}

Time TimingModel::layer_host_time(const PassTotals& totals) const {
  return engine_ ? engine_->layer_host_time(totals.prefill) : Time::zero();
}

OpTiming TimingModel::attention_op(const PassTotals& totals, int table_tokens) const {
  if (layered_attention_) return layered_attention_op(totals);
  const double pairs = totals.attention_pairs;
  const double kv_read_tokens = totals.kv_read_tokens;
  const double new_tokens = totals.new_tokens;
  OpTiming op = gqa_attention(pairs, kv_read_tokens, new_tokens, totals.causal_queries);
  const Time floor = new_tokens > 0 ? hw_.attention_floor : Time::zero();
  const bool decode = totals.sequences > 0 && totals.new_tokens == totals.sequences &&
                      pairs == kv_read_tokens - 0.5 * new_tokens;
  if (decode && hw_.sm_count > 0) {
    const int context = static_cast<int>(std::ceil(kv_read_tokens / totals.sequences));
    const int table = table_tokens > 0 ? std::max(table_tokens, context) : context;
    const Time chain = split_kv_chain(totals.sequences, context, table);
    if (chain + floor > op.time) op = {chain + floor, op.flops, op.bytes, Bound::memory};
  }
  return op;
}

OpTiming TimingModel::gqa_attention(double pairs, double kv_read_tokens, double new_tokens,
                                    double causal_queries) const {
  const double hd = model_.head_dim;
  const double flops = 4.0 * hd * heads_per_rank() * pairs;
  const double kv_row = 2.0 * kBf16Bytes * hd * kv_heads_per_rank();
  const double q_row = 2.0 * kBf16Bytes * hd * heads_per_rank();
  const double bytes = kv_row * (kv_read_tokens + new_tokens) + q_row * new_tokens;
  const Time floor = new_tokens > 0 ? hw_.attention_floor : Time::zero();
  return roofline(flops, bytes, causal_efficiency(pairs, causal_queries), hw_.kv_read_efficiency,
                  floor);
}

Time TimingModel::split_kv_chain(int sequences, int context_tokens, int table_tokens) const {
  const int block = (1 << split_kv_block_shift_) - 1;
  const int context_blocks = (context_tokens + block) >> split_kv_block_shift_;
  const int table_blocks = (table_tokens + block) >> split_kv_block_shift_;
  if (context_blocks == table_blocks && sequences < kDenseChainSequences) {
    return hw_.attention_block_time * dense_chain(sequences, context_blocks);
  }
  const std::uint64_t key = (static_cast<std::uint64_t>(sequences) << 40) |
                            (static_cast<std::uint64_t>(context_blocks) << 20) |
                            static_cast<std::uint64_t>(table_blocks);
  if (chain_slots_.empty()) chain_slots_.resize(std::size_t{1} << kChainSlotBits);
  ChainSlot& slot = chain_slots_[(key * 0x9E3779B97F4A7C15ULL) >> (64 - kChainSlotBits)];
  if (slot.key != key) {
    auto it = split_kv_memo_.find(key);
    if (it == split_kv_memo_.end()) {
      const int units = sequences * kv_heads_per_rank();
      const int busiest = split_kv_layout(units, context_blocks, table_blocks, hw_.sm_count).busiest_sm_blocks;
      it = split_kv_memo_.emplace(key, busiest).first;
    }
    slot = {key, it->second};
  }
  return hw_.attention_block_time * slot.busiest;
}

int TimingModel::dense_chain(int sequences, int blocks) const {
  if (dense_chains_.empty()) dense_chains_.resize(kDenseChainSequences);
  std::vector<int>& row = dense_chains_[static_cast<std::size_t>(sequences)];
  const auto b = static_cast<std::size_t>(blocks);
  if (row.size() <= b) row.resize(b + 1, -1);
  if (row[b] < 0) {
    row[b] = split_kv_layout(sequences * kv_heads_per_rank(), blocks, blocks, hw_.sm_count).busiest_sm_blocks;
  }
  return row[b];
}

OpTiming TimingModel::decode_attention(int sequences, int cached_tokens, int table_tokens) const {
  if (sequences < 1 || cached_tokens < 0 || table_tokens < 0) {
    throw std::invalid_argument("decode attention needs sequences and non-negative token counts");
  }
  PassTotals totals;
  for (int i = 0; i < sequences; ++i) totals.add({1, cached_tokens});
  return attention_op(totals, table_tokens);
}

OpTiming TimingModel::elementwise_op(double tokens) const {
  const ModelSpec& m = model_;
  const double rope_width = 2.0 * (heads_per_rank() + kv_heads_per_rank()) * m.head_dim;
  const double row = 3.0 * m.ffn_dim / tp_ + 10.0 * m.hidden_size + rope_width;
  const Time floor = tokens > 0.0 ? hw_.kernel_floor * kElementwiseKernels : Time::zero();
  return roofline(0.0, kBf16Bytes * tokens * row, hw_.compute_efficiency,
                  hw_.elementwise_efficiency, floor);
}

LayerBreakdown TimingModel::layer_breakdown(std::span<const SequenceChunk> chunks) const {
  return layer_breakdown(totals_of(chunks));
}

LayerBreakdown TimingModel::layer_breakdown(const PassTotals& totals) const {
  if (!layout_.trivial()) return parallel_layer(totals);
  LayerBreakdown layer;
  const TokenCosts& costs = token_costs(totals.new_tokens);
  layer.linear = costs.linear;
  layer.attention = attention_op(totals);
  layer.elementwise = costs.elementwise;
  layer.allreduce_time = costs.allreduce_time;
  layer.overhead_time = additive_layer_overhead();
  layer.host_time = layer_host_time(totals);
  return layer;
}

TimingModel::TokenCosts TimingModel::compute_token_costs(int tokens) const {
  TokenCosts c;
  c.linear = linear_op(tokens);
  c.elementwise = elementwise_op(tokens);
  const Bytes activation{static_cast<std::int64_t>(kBf16Bytes * tokens * model_.hidden_size)};
  c.allreduce_time = allreduce_time(activation) * 2;
  if (engine_) {
    c.allreduce_time = engine_->exposed_allreduce(c.allreduce_time, c.linear.time + c.elementwise.time);
  }
  c.layer_fixed = c.linear.time + c.elementwise.time + c.allreduce_time + additive_layer_overhead();
  c.lm_head = compute_lm_head(tokens);
  c.known = true;
  return c;
}

const TimingModel::TokenCosts& TimingModel::token_costs(int tokens) const {
  if (tokens >= 0 && tokens < kDenseMemoTokens) {
    const auto i = static_cast<std::size_t>(tokens);
    if (memo_.size() <= i) memo_.resize(std::max(i + 1, memo_.size() * 2));
    if (!memo_[i].known) memo_[i] = compute_token_costs(tokens);
    return memo_[i];
  }
  if (tokens < 0 || tokens >= kMemoTokens) {
    thread_local TokenCosts uncached;
    uncached = compute_token_costs(tokens);
    return uncached;
  }
  auto it = sparse_memo_.find(tokens);
  if (it == sparse_memo_.end()) it = sparse_memo_.emplace(tokens, compute_token_costs(tokens)).first;
  return it->second;
}

OpTiming TimingModel::lm_head(int logit_rows) const { return token_costs(logit_rows).lm_head; }

OpTiming TimingModel::compute_lm_head(int logit_rows) const {
  const double params = model_.lm_head_params() / tp_;
  const double activations = kBf16Bytes * logit_rows * (model_.hidden_size + static_cast<double>(model_.vocab_size) / tp_);
  return roofline(2.0 * logit_rows * params, kBf16Bytes * params + activations,
                  gemm_efficiency(logit_rows), hw_.memory_efficiency, hw_.kernel_floor);
}

OpTiming TimingModel::prefill_layer(int new_tokens, int cached_tokens) const {
  const SequenceChunk chunk{new_tokens, cached_tokens};
  const LayerBreakdown layer = layer_breakdown({&chunk, 1});
  return {layer.total_time(), layer.linear.flops + layer.attention.flops,
          layer.linear.bytes + layer.attention.bytes + layer.elementwise.bytes, layer.bound()};
}

OpTiming TimingModel::pass(std::span<const SequenceChunk> chunks, int logit_rows) const {
  return pass(totals_of(chunks), logit_rows);
}

OpTiming TimingModel::pass(const PassTotals& totals, int logit_rows) const {
  const LayerBreakdown layer = layer_breakdown(totals);
  const int layers = model_.num_layers;
  const OpTiming linear = scaled(layer.linear, layers);
  const OpTiming attention = scaled(layer.attention, layers);
  const OpTiming elementwise = scaled(layer.elementwise, layers);
  const OpTiming head = lm_head(logit_rows);
  const Time step = step_cost(totals.sequences, totals.kv_read_tokens);
  const Time total = layer.total_time() * layers + head.time + step;
  return {total, linear.flops + attention.flops + head.flops,
          linear.bytes + attention.bytes + elementwise.bytes + head.bytes,
          dominant({linear, attention, elementwise, head})};
}

Time TimingModel::pass_time(const PassTotals& totals, int logit_rows) const {
  if (!layout_.trivial()) return pass(totals, logit_rows).time;
  const TokenCosts& costs = token_costs(totals.new_tokens);
  const Time layer = max(layer_host_time(totals), costs.layer_fixed + attention_op(totals).time);
  const Time head = logit_rows == totals.new_tokens ? costs.lm_head.time : lm_head(logit_rows).time;
  const Time step = step_cost(totals.sequences, totals.kv_read_tokens);
  return layer * model_.num_layers + head + step;
}

Time TimingModel::verify_step_time(const PassTotals& plain, const PassTotals& verifying, int rows) const {
  return rows == plain.sequences ? pass_time(plain, rows) : pass_time(verifying, rows);
}

OpTiming TimingModel::prefill(int tokens) const {
  if (tokens < 1) throw std::invalid_argument("prefill needs at least one token");
  const SequenceChunk chunk{tokens, 0};
  return pass({&chunk, 1}, 1);
}

OpTiming TimingModel::decode_step(std::span<const int> kv_lengths) const {
  if (kv_lengths.empty()) throw std::invalid_argument("decode step needs at least one sequence");
  PassTotals totals;
  for (int length : kv_lengths) {
    if (length < 0) throw std::invalid_argument("token counts must not be negative");
    totals.add({1, length});
  }
  return pass(totals, totals.sequences);
}

OpTiming TimingModel::verify(int draft_tokens, int context_tokens) const {
  if (draft_tokens < 1) throw std::invalid_argument("verification needs at least one draft token");
  const SequenceChunk chunk{draft_tokens + 1, context_tokens};
  return pass({&chunk, 1}, draft_tokens + 1);
}

OpTiming TimingModel::verify_step(std::span<const int> kv_lengths, std::span<const int> drafts) const {
  if (drafts.size() != kv_lengths.size()) throw std::invalid_argument("one draft count per sequence");
  if (kv_lengths.empty()) throw std::invalid_argument("decode step needs at least one sequence");
  PassTotals plain;
  PassTotals verifying;
  int rows = 0;
  for (std::size_t i = 0; i < kv_lengths.size(); ++i) {
    const int k = drafts[i];
    if (k < 0 || k > kv_lengths[i]) throw std::invalid_argument("drafts must lie within the KV length");
    plain.add({1, kv_lengths[i]});
    verifying.add({k + 1, kv_lengths[i] - k});
    rows += k + 1;
  }
  return verify_step(plain, verifying, rows);
}

OpTiming TimingModel::verify_step(const PassTotals& plain, const PassTotals& verifying, int rows) const {
  const OpTiming base = pass(plain, plain.sequences);
  if (rows == plain.sequences) return base;
  const OpTiming with = pass(verifying, rows);
  return {base.time + (with.time - base.time), base.flops + with.flops - base.flops,
          base.bytes + with.bytes - base.bytes, with.bound};
}

Time TimingModel::kernel_time(Bytes bytes_in, Bytes bytes_out, int launches) const {
  if (launches < 0) throw std::invalid_argument("kernel launches must not be negative");
  const double rate = hw_.hbm_bandwidth.value * hw_.kernel_memory_efficiency;
  return hw_.kernel_launch * launches + Time::from_seconds((bytes_in + bytes_out).as_double() / rate);
}

}  // namespace lynxsim
