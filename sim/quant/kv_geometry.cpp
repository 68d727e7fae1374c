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
}

std::string KvGeometry::canonical() const {
  std::ostringstream out;
  out.precision(17);
  out << "geometry{layers=" << num_layers << ",kv_heads=" << num_kv_heads << ",heads=" << num_heads
      << ",head_dim=" << head_dim << ",rope_theta=" << rope_theta << "}";
  return out.str();
}

}  // namespace lynxsim::quant
