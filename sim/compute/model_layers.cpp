#include "sim/compute/model_layers.hpp"

#include <cmath>
#include <stdexcept>

namespace lynxsim {

double LinearAttentionSpec::state_values() const {
  const double recurrent = static_cast<double>(value_heads) * key_head_dim * value_head_dim;
  const double conv_channels = 2.0 * key_heads * key_head_dim + static_cast<double>(value_heads) * value_head_dim;
  return recurrent + conv_channels * (conv_kernel - 1);
}

double LinearAttentionSpec::params(int hidden) const {
  const double h = hidden;
  const double in = 2.0 * key_heads * key_head_dim + 2.0 * value_heads * value_head_dim + 2.0 * value_heads;
  return h * in + static_cast<double>(value_heads) * value_head_dim * h;
}

double MoeSpec::distinct_experts(double tokens) const {
  if (!(tokens > 0.0) || experts <= 0) return 0.0;
  const double e = experts;
  return e * (1.0 - std::pow(1.0 - top_k / e, tokens));
}

const char* to_string(LayerKind kind) {
  switch (kind) {
    case LayerKind::full: return "full";
    case LayerKind::sliding: return "sliding";
    case LayerKind::linear: return "linear";
  }
  return "full";
}

LayerKind layer_kind(const std::string& pattern, int layer) {
  if (pattern.empty() || layer < 0) return LayerKind::full;
  switch (pattern[static_cast<std::size_t>(layer) % pattern.size()]) {
    case 'S': return LayerKind::sliding;
    case 'L': return LayerKind::linear;
    case 'F': return LayerKind::full;
    default: throw std::invalid_argument("layer_pattern letters are F, S and L");
  }
}

}  // namespace lynxsim
