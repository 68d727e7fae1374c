#include "sim/serving/kv_bytes.hpp"

#include <cmath>
#include <stdexcept>

#include "sim/serving/kv_head_map.hpp"

namespace lynxsim::serving {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::int64_t packed(std::int64_t elements, int bits) { return ceil_div(elements * bits, 8); }

std::int64_t bf16_bytes(std::int64_t heads, std::int64_t d, std::int64_t tokens) {
  return 2 * heads * tokens * d * 2;
}

std::vector<Bytes> grouped_planes(const quant::MethodSpec& m, std::int64_t heads, std::int64_t d,
                                  std::int64_t tokens) {
  const std::int64_t group = m.group_size > 0 ? m.group_size : d;
  std::vector<Bytes> out;
  for (const int b : m.planes) out.push_back(Bytes{2 * heads * packed(tokens * d, b)});
  out.front() += Bytes{2 * heads * tokens * ceil_div(d, group) * 4};
  return out;
}

std::vector<Bytes> kivi_planes(const quant::MethodSpec& m, std::int64_t heads, std::int64_t d,
                               std::int64_t tokens) {
  const std::int64_t g = m.kivi_group;
  const std::int64_t quantized = std::max<std::int64_t>(0, tokens - m.kivi_window) / g * g;
  const std::int64_t keys = packed(quantized * d, m.bits) + quantized / g * d * 4;
  const std::int64_t values = packed(quantized * d, m.bits) + quantized * ceil_div(d, g) * 4;
  const std::int64_t recent = 2 * (tokens - quantized) * d * 2;
  return {Bytes{heads * (keys + values + recent)}};
}

}  // namespace

int kv_heads_per_rank(int num_kv_heads, int tensor_parallel) {
  if (num_kv_heads < 1 || tensor_parallel < 1) throw std::invalid_argument("heads and tp must be >= 1");
  return tensor_parallel >= num_kv_heads ? 1 : static_cast<int>(ceil_div(num_kv_heads, tensor_parallel));
}

std::vector<Bytes> layer_plane_bytes(const quant::MethodSpec& method, int heads, int head_dim,
                                     int tokens, double measured_size_ratio) {
  const std::int64_t h = heads;
  const std::int64_t d = head_dim;
  const std::int64_t t = tokens;
  switch (method.family) {
    case quant::MethodFamily::bf16: return {Bytes{bf16_bytes(h, d, t)}};
    case quant::MethodFamily::int_n:
    case quant::MethodFamily::lynx: return grouped_planes(method, h, d, t);
    case quant::MethodFamily::kivi: return kivi_planes(method, h, d, t);
    case quant::MethodFamily::cachegen:
      if (!(measured_size_ratio > 0.0)) {
        throw std::invalid_argument("cachegen needs a measured size ratio (run its accuracy measurement)");
      }
      return {Bytes{std::llround(static_cast<double>(bf16_bytes(h, d, t)) * measured_size_ratio)}};
  }
  throw std::logic_error("unknown method family");
}

KvGeometry kv_geometry_of(const ModelSpec& model) {
  KvGeometry g;
  g.model = model.name;
  g.num_layers = model.num_layers;
  g.num_kv_heads = model.num_kv_heads;
  g.num_heads = model.num_heads;
  g.head_dim = model.head_dim;
  g.rope_theta = model.rope_theta;
  return g;
}

std::vector<Bytes> total_plane_bytes(const quant::MethodSpec& method, const KvGeometry& g,
                                     int tensor_parallel, int tokens, double measured_size_ratio) {
  const int heads = kv_heads_per_rank(g.num_kv_heads, tensor_parallel);
  std::vector<Bytes> per_layer =
      layer_plane_bytes(method, heads, g.head_dim, tokens, measured_size_ratio);
  for (auto& b : per_layer) b = b * (static_cast<std::int64_t>(g.num_layers) * tensor_parallel);
  return per_layer;
}

std::vector<Bytes> transfer_plane_bytes(const quant::MethodSpec& method, const KvGeometry& g,
                                        int src_tp, int dst_tp, int tokens,
                                        double measured_size_ratio) {
  std::vector<Bytes> total;
  for (const HeadFlow& f : kv_head_flows(g.num_kv_heads, src_tp, dst_tp)) {
    const auto planes = layer_plane_bytes(method, f.heads, g.head_dim, tokens, measured_size_ratio);
    total.resize(planes.size());
    for (std::size_t p = 0; p < planes.size(); ++p) total[p] += planes[p] * g.num_layers;
  }
  return total;
}

}  // namespace lynxsim::serving
