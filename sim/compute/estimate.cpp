#include "sim/compute/estimate.hpp"

#include <stdexcept>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sim/compute/static_batch.hpp"
#include "sim/core/unit_parse.hpp"

namespace lynxsim {
namespace {

LayerEstimate to_layer_estimate(const LayerBreakdown& layer) {
  LayerEstimate e;
  e.linear_flops = layer.linear.flops;
  e.linear_time_s = layer.linear.time.seconds();
  e.linear_bound = layer.linear.bound;
  e.attention_flops = layer.attention.flops;
  e.attention_time_s = layer.attention.time.seconds();
  e.attention_bound = layer.attention.bound;
  e.elementwise_time_s = layer.elementwise.time.seconds();
  e.allreduce_time_s = layer.allreduce_time.seconds();
  e.overhead_time_s = layer.overhead_time.seconds();
  e.total_time_s = layer.total_time().seconds();
  return e;
}

std::string layer_row(std::string_view label, const LayerEstimate& l) {
  return fmt::format("  {:<8} {:>9.3f} ms  {:>9.3f} ms {:<7} {:>10.3e}  {:>9.3f} ms {:<7} {:>10.3e}  "
                     "{:>9.3f} ms  {:>9.3f} ms  {:>7.3f} ms\n",
                     label, l.total_time_s * 1e3, l.linear_time_s * 1e3, to_string(l.linear_bound),
                     l.linear_flops, l.attention_time_s * 1e3, to_string(l.attention_bound),
                     l.attention_flops, l.elementwise_time_s * 1e3, l.allreduce_time_s * 1e3,
                     l.overhead_time_s * 1e3);
}

std::string gib(std::int64_t bytes) {
  return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
}

std::vector<LayerKindKv> kv_by_kind(const ModelSpec& m) {
  std::vector<LayerKindKv> out;
  const std::string attention = m.attention.mla ? "mla" : "gqa";
  for (const LayerKind kind : {LayerKind::full, LayerKind::sliding, LayerKind::linear}) {
    LayerKindKv k;
    k.kind = to_string(kind);
    k.layers = m.layers_of(kind);
    if (k.layers == 0) continue;
    k.attention = kind == LayerKind::linear ? "linear" : attention;
    if (kind == LayerKind::linear) {
      k.state_bytes_per_layer = m.linear_state_bytes_per_layer_bf16().value;
    } else {
      k.bytes_per_token_per_layer = m.kv_bytes_per_token_per_layer_bf16().value;
    }
    if (kind == LayerKind::sliding) k.window = m.attention.sliding_window;
    out.push_back(k);
  }
  return out;
}

std::string kinds_table(const std::vector<LayerKindKv>& kinds) {
  std::string out;
  for (const LayerKindKv& k : kinds) {
    out += fmt::format("    {:<8} {:<6} {:>3} layers  ", k.kind, k.attention, k.layers);
    if (k.kind == "linear") {
      out += fmt::format("state {} per layer and sequence\n", format_bytes(Bytes{k.state_bytes_per_layer}));
    } else {
      out += fmt::format("{} per token and layer{}\n", format_bytes(Bytes{k.bytes_per_token_per_layer}),
                         k.window > 0 ? fmt::format(" (at most {} tokens)", k.window) : std::string{});
    }
  }
  return out;
}

std::string layout_text(const ExpertParallelLayout& layout, int tensor_parallel) {
  return fmt::format("attention TP{} x DP{}, EP{}", tensor_parallel / layout.attention_dp, layout.attention_dp,
                     layout.expert_parallel);
}

ExpertParallelLayout request_layout(const ModelSpec& model, const EstimateRequest& req, bool prefill) {
  ExpertParallelLayout layout = default_layout(model, req.tensor_parallel, prefill);
  const int attention_dp = prefill ? req.prefill_attention_dp : req.decode_attention_dp;
  if (attention_dp > 0) layout.attention_dp = attention_dp;
  if (req.expert_parallel > 0) layout.expert_parallel = req.expert_parallel;
  layout.load_imbalance = req.load_imbalance;
  check_layout(layout, req.tensor_parallel, model.moe.has_value());
  return layout;
}

TimingModel laid_out(const ModelSpec& model, const HardwareSpec& hw, int tensor_parallel,
                     const ExpertParallelLayout& layout, const std::optional<EngineSpec>& engine) {
  TimingModel timing(model, hw, tensor_parallel, engine);
  timing.set_parallel_layout(layout);
  return timing;
}

}  // namespace

Estimate build_estimate(const ModelSpec& model, const HardwareSpec& hw, const EstimateRequest& req,
                        const std::optional<EngineSpec>& engine) {
  if (req.context < 1 || req.batch < 1 || req.tensor_parallel < 1 || req.output_tokens < 0) {
    throw std::invalid_argument(
        "estimate needs context, batch and tensor_parallel of at least 1 and output tokens >= 0");
  }
  Estimate e;
  e.prefill_layout = request_layout(model, req, true);
  e.decode_layout = request_layout(model, req, false);
  const TimingModel prefill_timing = laid_out(model, hw, req.tensor_parallel, e.prefill_layout, engine);
  const TimingModel timing = laid_out(model, hw, req.tensor_parallel, e.decode_layout, engine);
  e.model = model.name;
  e.hardware = hw.name;
  e.engine = engine ? engine->name : "none";
  e.request = req;
  const OpTiming prefill = prefill_timing.prefill(req.context);
  e.prefill_time_s = prefill.time.seconds();
  e.prefill_bound = prefill.bound;
  const std::vector<int> kv_lengths(static_cast<std::size_t>(req.batch), req.context);
  const OpTiming decode = timing.decode_step(kv_lengths);
  e.decode_step_time_s = decode.time.seconds();
  e.decode_bound = decode.bound;
  e.decode_tokens_per_s = req.batch / e.decode_step_time_s;
  if (req.output_tokens > 0) {
    e.static_batch_time_s =
        static_batch_time(timing, {req.batch, req.context, req.output_tokens}).seconds();
  }
  e.kv_bytes_per_token = model.kv_bytes_per_token_bf16().value;
  e.kv_bytes_per_token_per_rank = timing.kv_bytes_per_token_per_rank().value;
  e.kv_replication = timing.kv_replication();
  e.weight_bytes_per_rank = timing.weight_bytes_per_rank().value;
  e.kv_bytes_per_rank = timing.kv_bytes_per_rank(req.context).value * req.batch;
  e.kv_bytes_per_sequence = model.kv_bytes_bf16(req.context).value;
  e.kv_by_kind = kv_by_kind(model);
  for (const PartPrecision& part : part_precisions(model.weights, model.gemm_precision, hw)) {
    if (model.moe || std::string_view(part.part) != "experts") e.weights.push_back(part);
  }
  e.hbm_capacity = hw.hbm_capacity.value;
  e.fits_in_hbm = e.weight_bytes_per_rank + e.kv_bytes_per_rank <= e.hbm_capacity;
  const SequenceChunk prompt{req.context, 0};
  e.prefill_layer = to_layer_estimate(prefill_timing.layer_breakdown({&prompt, 1}));
  std::vector<SequenceChunk> steps(static_cast<std::size_t>(req.batch), SequenceChunk{1, req.context});
  e.decode_layer = to_layer_estimate(timing.layer_breakdown(steps));
  return e;
}

std::string estimate_table(const Estimate& e) {
  std::string out = fmt::format("{} on {}  (context {}, decode batch {}, TP {}, engine {})\n",
                                e.model, e.hardware, e.request.context, e.request.batch,
                                e.request.tensor_parallel, e.engine);
  if (!e.prefill_layout.trivial() || !e.decode_layout.trivial()) {
    out += fmt::format("  layout        prefill {}; decode {}; expert load imbalance {:.2f}\n",
                       layout_text(e.prefill_layout, e.request.tensor_parallel),
                       layout_text(e.decode_layout, e.request.tensor_parallel), e.request.load_imbalance);
  }
  out += fmt::format("  prefill       {:>10.3f} ms  {}-bound\n", e.prefill_time_s * 1e3,
                     to_string(e.prefill_bound));
  out += fmt::format("  decode step   {:>10.3f} ms  {}-bound  ({:.1f} tokens/s)\n",
                     e.decode_step_time_s * 1e3, to_string(e.decode_bound), e.decode_tokens_per_s);
  if (e.request.output_tokens > 0) {
    out += fmt::format("  static batch  {:>10.3f} s   {} prompts of {} tokens, {} output tokens each\n",
                       e.static_batch_time_s, e.request.batch, e.request.context,
                       e.request.output_tokens);
  }
  out += fmt::format("  KV per token  {} (per rank {}, replication x{})\n",
                     format_bytes(Bytes{e.kv_bytes_per_token}),
                     format_bytes(Bytes{e.kv_bytes_per_token_per_rank}), e.kv_replication);
  out += fmt::format("  KV of one sequence of {} tokens: {}, by layer kind (BF16):\n", e.request.context,
                     format_bytes(Bytes{e.kv_bytes_per_sequence}));
  out += kinds_table(e.kv_by_kind);
  out += "  weights      ";
  for (const PartPrecision& p : e.weights) {
    out += fmt::format(" {} {} ({:.4g} B/weight, {} at {})", p.part, to_string(p.format),
                       bytes_per_weight(p.format), p.scheme(), to_string(p.precision));
  }
  out += "\n";
  out += fmt::format("  HBM per rank  weights {} + KV {} of {}{}\n",
                     gib(e.weight_bytes_per_rank), gib(e.kv_bytes_per_rank), gib(e.hbm_capacity),
                     e.fits_in_hbm ? "" : "  (does NOT fit)");
  out += fmt::format("  per layer and rank:\n  {:<8} {:>12}  {:>30}  {:>30}  {:>12}  {:>12}  {:>10}\n",
                     "", "total", "linear (bound, FLOP)", "attention (bound, FLOP)", "elementwise",
                     "all-reduce", "fixed");
  out += layer_row("prefill", e.prefill_layer);
  out += layer_row("decode", e.decode_layer);
  return out;
}

}  // namespace lynxsim
