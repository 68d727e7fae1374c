#include "sim/compute/model_spec.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace lynxsim {
namespace {

bool dense_gqa(const ModelSpec& m) { return !m.moe && !m.attention.mla && !m.attention.linear; }

double gqa_params(const ModelSpec& m) {
  return static_cast<double>(m.hidden_size) * m.head_dim * (2.0 * m.num_heads + 2.0 * m.num_kv_heads);
}

double mla_params(const ModelSpec& m, const MlaSpec& a) {
  const double h = m.hidden_size;
  const double heads = m.num_heads;
  const double qk = a.qk_nope_head_dim + a.qk_rope_head_dim;
  const double q = a.q_lora_rank > 0 ? h * a.q_lora_rank + a.q_lora_rank * heads * qk : h * heads * qk;
  const double kv = h * (a.kv_lora_rank + a.qk_rope_head_dim) +
                    a.kv_lora_rank * heads * (a.qk_nope_head_dim + a.v_head_dim);
  return q + kv + heads * a.v_head_dim * h;
}

// FFN parameters summed over all layers, with `experts` experts per MoE layer besides the shared.
double ffn_params(const ModelSpec& m, double experts) {
  const double dense = 3.0 * m.hidden_size * m.ffn_dim;
  if (!m.moe) return dense * m.num_layers;
  const MoeSpec& e = *m.moe;
  const double expert = 3.0 * m.hidden_size * e.expert_ffn_dim;
  const double moe_layer = static_cast<double>(m.hidden_size) * e.experts + (experts + e.shared_experts) * expert;
  return dense * (m.num_layers - m.moe_layers()) + moe_layer * m.moe_layers();
}

double attention_params_sum(const ModelSpec& m) {
  return m.attention_params(LayerKind::full) * (m.layers_of(LayerKind::full) + m.layers_of(LayerKind::sliding)) +
         m.attention_params(LayerKind::linear) * m.layers_of(LayerKind::linear);
}

}  // namespace

int ModelSpec::layers_of(LayerKind kind) const {
  int n = 0;
  for (int layer = 0; layer < num_layers; ++layer) n += layer_kind(attention.layer_pattern, layer) == kind ? 1 : 0;
  return n;
}

int ModelSpec::moe_layers() const {
  return moe ? std::max(0, num_layers - moe->first_dense_layers) : 0;
}

std::int64_t ModelSpec::kv_values_per_token_per_layer() const {
  if (attention.mla) return std::int64_t{attention.mla->kv_lora_rank} + attention.mla->qk_rope_head_dim;
  return std::int64_t{2} * num_kv_heads * head_dim;
}

Bytes ModelSpec::kv_bytes_per_token_per_layer_bf16() const {
  return Bytes{kv_values_per_token_per_layer() * 2};
}

Bytes ModelSpec::kv_bytes_per_token_bf16() const {
  return kv_bytes_per_token_per_layer_bf16() * (layers_of(LayerKind::full) + layers_of(LayerKind::sliding));
}

Bytes ModelSpec::linear_state_bytes_per_layer_bf16() const {
  if (!attention.linear) return Bytes{0};
  return Bytes{static_cast<std::int64_t>(attention.linear->state_values()) * 2};
}

Bytes ModelSpec::kv_bytes_bf16(std::int64_t tokens) const {
  const std::int64_t window = attention.sliding_window > 0 ? std::min<std::int64_t>(tokens, attention.sliding_window) : tokens;
  const Bytes per_layer = kv_bytes_per_token_per_layer_bf16();
  return per_layer * (tokens * layers_of(LayerKind::full)) + per_layer * (window * layers_of(LayerKind::sliding)) +
         linear_state_bytes_per_layer_bf16() * layers_of(LayerKind::linear);
}

double ModelSpec::attention_params(LayerKind kind) const {
  if (kind == LayerKind::linear && attention.linear) return attention.linear->params(hidden_size);
  if (attention.mla) return mla_params(*this, *attention.mla);
  return gqa_params(*this);
}

double ModelSpec::linear_params_per_layer() const {
  if (dense_gqa(*this)) return gqa_params(*this) + 3.0 * hidden_size * ffn_dim;
  const double experts = moe ? moe->experts : 0.0;
  return (attention_params_sum(*this) + ffn_params(*this, experts)) / num_layers;
}

double ModelSpec::active_linear_params_per_layer() const {
  if (!moe) return linear_params_per_layer();
  return (attention_params_sum(*this) + ffn_params(*this, moe->top_k)) / num_layers;
}

double ModelSpec::read_linear_params_per_layer(double tokens) const {
  if (!moe) return linear_params_per_layer();
  return (attention_params_sum(*this) + ffn_params(*this, moe->distinct_experts(tokens))) / num_layers;
}

ModelSpec::PartParams ModelSpec::part_params(double routed_experts) const {
  PartParams p;
  p.attention = attention_params_sum(*this);
  p.ffn = ffn_params(*this, 0.0);
  if (moe) p.experts = 3.0 * hidden_size * moe->expert_ffn_dim * routed_experts * moe_layers();
  return p;
}

double ModelSpec::lm_head_params() const {
  return static_cast<double>(vocab_size) * hidden_size;
}

std::string describe(const ModelSpec& model) {
  const std::string params = model.num_params < 1e9
                                 ? fmt::format("{:.0f}M", model.num_params * 1e-6)
                                 : fmt::format("{:.2f}B", model.num_params * 1e-9);
  return fmt::format("{:<16} {:>3} layers, hidden {:>5}, heads {:>3}/{:<2} kv, {:>8} params, "
                     "KV {:g} KiB/token",
                     model.name, model.num_layers, model.hidden_size, model.num_heads,
                     model.num_kv_heads, params,
                     model.kv_bytes_per_token_bf16().as_double() / 1024.0);
}

}  // namespace lynxsim
