// Weight formats and GEMM precision in the timing model (timing_model.hpp, "Weight formats and
// compute precision"; the formats and the choice of precision in weight_format.hpp).

#include <stdexcept>

#include <fmt/format.h>

#include "sim/compute/timing_model.hpp"

namespace lynxsim {
namespace {

constexpr double kBf16Bytes = 2.0;
constexpr int kGemmKernels = 4;

ModelSpec::PartParams routed(const ModelSpec& m, bool active, double read_tokens) {
  if (!m.moe) return m.part_params(0.0);
  return m.part_params(active ? m.moe->top_k : m.moe->distinct_experts(read_tokens));
}

}  // namespace

void TimingModel::set_precision() {
  const std::string conflict = precision_conflict(model_.gemm_precision, hw_);
  if (!conflict.empty()) throw std::invalid_argument(fmt::format("model {}: {}", model_.name, conflict));
  const auto parts = part_precisions(model_.weights, model_.gemm_precision, hw_);
  part_rates_ = {gemm_rate(parts[0].precision, hw_), gemm_rate(parts[1].precision, hw_),
                 gemm_rate(parts[2].precision, hw_)};
  part_bytes_ = {bytes_per_weight(parts[0].format), bytes_per_weight(parts[1].format),
                 bytes_per_weight(parts[2].format)};
  uniform_weights_ = model_.weights.uniform();
}

OpTiming TimingModel::mixed_linear_op(double attention_tokens, double attention_ranks, double ffn_tokens,
                                      double read_tokens, double activations) const {
  const double layers = model_.num_layers;
  const ModelSpec::PartParams active = routed(model_, true, 0.0);
  const ModelSpec::PartParams read = routed(model_, false, read_tokens);
  const double attention_flops = 2.0 * attention_tokens * active.attention / layers / attention_ranks;
  const double ffn_flops = 2.0 * ffn_tokens * active.ffn / layers / tp_;
  const double expert_flops = 2.0 * ffn_tokens * active.experts / layers / tp_;
  const double flops = attention_flops + ffn_flops + expert_flops;
  const double bf16_flops = attention_flops / part_rates_.attention + ffn_flops / part_rates_.ffn +
                            expert_flops / part_rates_.experts;
  const double rate = bf16_flops > 0.0 ? flops / bf16_flops : 1.0;
  const double weights = (part_bytes_.attention * read.attention / attention_ranks +
                          (part_bytes_.ffn * read.ffn + part_bytes_.experts * read.experts) / tp_) /
                         layers;
  return roofline(flops, weights + activations, gemm_efficiency(attention_tokens) * rate,
                  hw_.memory_efficiency, hw_.kernel_floor * kGemmKernels);
}

Bytes TimingModel::mixed_weight_bytes() const {
  const ModelSpec::PartParams all = model_.part_params(model_.moe ? model_.moe->experts : 0.0);
  const double held = part_bytes_.attention * all.attention / attention_tp() +
                      (part_bytes_.ffn * all.ffn + part_bytes_.experts * all.experts) / tp_;
  return Bytes{static_cast<std::int64_t>(held + kBf16Bytes * model_.lm_head_params() / tp_)};
}

}  // namespace lynxsim
