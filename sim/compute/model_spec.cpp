#include "sim/compute/model_spec.hpp"

#include <fmt/format.h>

namespace lynxsim {

Bytes ModelSpec::kv_bytes_per_token_per_layer_bf16() const {
  return Bytes{std::int64_t{2} * num_kv_heads * head_dim * 2};
}

Bytes ModelSpec::kv_bytes_per_token_bf16() const {
  return kv_bytes_per_token_per_layer_bf16() * num_layers;
}

double ModelSpec::linear_params_per_layer() const {
  const double h = hidden_size;
  const double attention = h * head_dim * (2.0 * num_heads + 2.0 * num_kv_heads);
  const double mlp = 3.0 * h * ffn_dim;
  return attention + mlp;
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
