#include "sim/quant/kv_geometry.hpp"

#include <sstream>
#include <stdexcept>

namespace lynxsim::quant {

void KvGeometry::validate() const {
  const auto fail = [this](const std::string& what) {
    throw std::invalid_argument("KV geometry of '" + model + "': " + what);
  };
  if (num_layers <= 0) fail("num_layers must be positive");
  if (num_kv_heads <= 0) fail("num_kv_heads must be positive");
  if (num_heads <= 0 || num_heads % num_kv_heads != 0) fail("num_heads must be a positive multiple of num_kv_heads");
  if (head_dim <= 0 || head_dim % 2 != 0) fail("head_dim must be positive and even (RoPE pairs)");
  if (!(rope_theta > 1.0)) fail("rope_theta must be > 1");
  if (kv_tensors != 1 && kv_tensors != 2) fail("kv_tensors must be 1 or 2");
  if (sliding_layers < 0 || linear_layers < 0 || full_layers() < 0) fail("layer counts must fit num_layers");
  if (sliding_layers > 0 && sliding_window <= 0) fail("sliding_window must be positive");
  if (linear_layers > 0 && linear_state_values <= 0) fail("linear_state_values must be positive");
  if (latent_rope_dim < 0 || latent_rope_dim >= head_dim || latent_rope_dim % 2 != 0) {
    fail("latent_rope_dim must be even and below head_dim");
  }
  if (linear_value_heads < 0 || linear_key_head_dim < 0 || linear_value_head_dim < 0) fail("linear dims must be >= 0");
}

char KvGeometry::layer_letter(int layer) const {
  if (layer_pattern.empty()) return 'F';
  return layer_pattern[static_cast<std::size_t>(layer) % layer_pattern.size()];
}

std::string KvGeometry::canonical() const {
  std::ostringstream out;
  out.precision(17);
  out << "geometry{layers=" << num_layers << ",kv_heads=" << num_kv_heads << ",heads=" << num_heads
      << ",head_dim=" << head_dim << ",rope_theta=" << rope_theta;
  if (!dense()) {
    out << ",kv_tensors=" << kv_tensors << ",sliding=" << sliding_layers << "x" << sliding_window
        << ",linear=" << linear_layers << "x" << linear_state_values << ",pattern=" << layer_pattern
        << ",latent_rope=" << latent_rope_dim << ",state=" << linear_value_heads << "x" << linear_key_head_dim << "x"
        << linear_value_head_dim;
  }
  out << "}";
  return out.str();
}

}  // namespace lynxsim::quant
