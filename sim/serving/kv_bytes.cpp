#include "sim/serving/kv_bytes.hpp"

#include <cmath>
#include <stdexcept>

#include "sim/serving/kv_head_map.hpp"

namespace lynxsim::serving {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::int64_t packed(std::int64_t elements, int bits) { return ceil_div(elements * bits, 8); }

std::int64_t bf16_bytes(std::int64_t tensors, std::int64_t heads, std::int64_t d, std::int64_t tokens) {
  return tensors * heads * tokens * d * 2;
}

std::vector<Bytes> grouped_planes(const quant::MethodSpec& m, std::int64_t tensors, std::int64_t heads,
                                  std::int64_t d, std::int64_t tokens) {
  const std::int64_t group = m.group_size > 0 ? m.group_size : d;
  std::vector<Bytes> out;
  for (const int b : m.planes) out.push_back(Bytes{tensors * heads * packed(tokens * d, b)});
  out.front() += Bytes{tensors * heads * tokens * ceil_div(d, group) * 4};
  return out;
}

// A KV format's code split into the method's planes (one plane unless Lynx), its scales with plane 0
// (kv_format.hpp gives the layout of the scales).
std::vector<Bytes> format_planes(const quant::MethodSpec& m, std::int64_t tensors, std::int64_t heads,
                                 std::int64_t d, std::int64_t tokens) {
  const quant::KvFormatInfo& f = quant::kv_format_info(*m.format);
  std::vector<Bytes> out;
  for (const int b : m.planes) out.push_back(Bytes{tensors * heads * packed(tokens * d, b)});
  std::int64_t scales = tensors * f.tensor_scale_bytes;
  if (f.scales == quant::ScaleLayout::per_token_head) scales += tensors * heads * tokens * f.scale_bytes;
  if (f.scales == quant::ScaleLayout::per_block) {
    scales += tensors * heads * tokens * ceil_div(d, f.block_elements) * f.scale_bytes;
  }
  out.front() += Bytes{scales};
  return out;
}

// Keys per-channel, values per-token; a single tensor (a latent or a state) goes as values.
std::vector<Bytes> kivi_planes(const quant::MethodSpec& m, std::int64_t tensors, std::int64_t heads,
                               std::int64_t d, std::int64_t tokens) {
  const std::int64_t g = m.kivi_group;
  const std::int64_t quantized = std::max<std::int64_t>(0, tokens - m.kivi_window) / g * g;
  const std::int64_t keys = packed(quantized * d, m.bits) + quantized / g * d * 4;
  const std::int64_t values = packed(quantized * d, m.bits) + quantized * ceil_div(d, g) * 4;
  const std::int64_t recent = tensors * (tokens - quantized) * d * 2;
  return {Bytes{heads * ((tensors == 2 ? keys : 0) + values + recent)}};
}

std::vector<Bytes> tensor_plane_bytes(const quant::MethodSpec& method, std::int64_t tensors, std::int64_t h,
                                      std::int64_t d, std::int64_t t, double measured_size_ratio) {
  if (method.format) return format_planes(method, tensors, h, d, t);
  switch (method.family) {
    case quant::MethodFamily::bf16: return {Bytes{bf16_bytes(tensors, h, d, t)}};
    case quant::MethodFamily::int_n:
    case quant::MethodFamily::lynx: return grouped_planes(method, tensors, h, d, t);
    case quant::MethodFamily::kivi: return kivi_planes(method, tensors, h, d, t);
    case quant::MethodFamily::scaled: break;
    case quant::MethodFamily::cachegen:
      if (!(measured_size_ratio > 0.0)) {
        throw std::invalid_argument("cachegen needs a measured size ratio (run its accuracy measurement)");
      }
      return {Bytes{std::llround(static_cast<double>(bf16_bytes(tensors, h, d, t)) * measured_size_ratio)}};
  }
  throw std::logic_error("unknown method family");
}

void add_scaled(std::vector<Bytes>& total, const std::vector<Bytes>& planes, std::int64_t k) {
  total.resize(std::max(total.size(), planes.size()));
  for (std::size_t p = 0; p < planes.size(); ++p) total[p] += planes[p] * k;
}

// Every layer of the model for a rank holding `heads` KV heads, by layer kind.
std::vector<Bytes> all_layer_bytes(const quant::MethodSpec& method, const KvGeometry& g, int heads,
                                   int tokens, double ratio) {
  std::vector<Bytes> total;
  const auto attention = [&](int t) { return tensor_plane_bytes(method, g.kv_tensors, heads, g.head_dim, t, ratio); };
  add_scaled(total, attention(tokens), g.full_layers());
  if (g.sliding_layers > 0) add_scaled(total, attention(std::min(tokens, g.sliding_window)), g.sliding_layers);
  if (g.linear_layers > 0) {
    const std::int64_t state = ceil_div(g.linear_state_values * heads, g.num_kv_heads);
    add_scaled(total, tensor_plane_bytes(method, 1, 1, state, 1, ratio), g.linear_layers);
  }
  return total;
}

}  // namespace

int kv_heads_per_rank(int num_kv_heads, int tensor_parallel) {
  if (num_kv_heads < 1 || tensor_parallel < 1) throw std::invalid_argument("heads and tp must be >= 1");
  return tensor_parallel >= num_kv_heads ? 1 : static_cast<int>(ceil_div(num_kv_heads, tensor_parallel));
}

std::vector<Bytes> layer_plane_bytes(const quant::MethodSpec& method, int heads, int head_dim,
                                     int tokens, double measured_size_ratio) {
  return tensor_plane_bytes(method, 2, heads, head_dim, tokens, measured_size_ratio);
}

std::vector<Bytes> piece_plane_bytes(const quant::MethodSpec& method, const KvGeometry& g, int heads,
                                     int layers, int tokens, double measured_size_ratio) {
  if (g.dense()) {
    std::vector<Bytes> bytes = layer_plane_bytes(method, heads, g.head_dim, tokens, measured_size_ratio);
    for (auto& b : bytes) b = b * layers;
    return bytes;
  }
  std::vector<Bytes> bytes = all_layer_bytes(method, g, heads, tokens, measured_size_ratio);
  if (layers == g.num_layers) return bytes;
  for (auto& b : bytes) b = Bytes{b.value * layers / g.num_layers};
  return bytes;
}

Bytes piece_bf16_bytes(const KvGeometry& g, int heads, int layers, int tokens) {
  static const quant::MethodSpec bf16 = [] {
    quant::MethodSpec m;
    m.family = quant::MethodFamily::bf16;
    return m;
  }();
  return piece_plane_bytes(bf16, g, heads, layers, tokens).front();
}

KvGeometry kv_geometry_of(const ModelSpec& model) {
  KvGeometry g;
  g.model = model.name;
  g.num_layers = model.num_layers;
  g.num_kv_heads = model.num_kv_heads;
  g.num_heads = model.num_heads;
  g.head_dim = model.head_dim;
  g.rope_theta = model.rope_theta;
  if (model.attention.mla) {
    g.kv_tensors = 1;
    g.num_kv_heads = 1;
    g.head_dim = static_cast<int>(model.kv_values_per_token_per_layer());
    g.latent_rope_dim = model.attention.mla->qk_rope_head_dim;
  }
  g.layer_pattern = model.attention.layer_pattern;
  g.sliding_layers = model.layers_of(LayerKind::sliding);
  g.sliding_window = model.attention.sliding_window;
  g.linear_layers = model.layers_of(LayerKind::linear);
  if (model.attention.linear) {
    const LinearAttentionSpec& linear = *model.attention.linear;
    g.linear_state_values = static_cast<std::int64_t>(linear.state_values());
    g.linear_value_heads = linear.value_heads;
    g.linear_key_head_dim = linear.key_head_dim;
    g.linear_value_head_dim = linear.value_head_dim;
  }
  return g;
}

std::vector<Bytes> total_plane_bytes(const quant::MethodSpec& method, const KvGeometry& g,
                                     int tensor_parallel, int tokens, double measured_size_ratio) {
  const int heads = kv_heads_per_rank(g.num_kv_heads, tensor_parallel);
  std::vector<Bytes> bytes = piece_plane_bytes(method, g, heads, g.num_layers, tokens, measured_size_ratio);
  for (auto& b : bytes) b = b * tensor_parallel;
  return bytes;
}

std::vector<Bytes> transfer_plane_bytes(const quant::MethodSpec& method, const KvGeometry& g,
                                        int src_tp, int dst_tp, int tokens,
                                        double measured_size_ratio) {
  std::vector<Bytes> total;
  for (const HeadFlow& f : kv_head_flows(g.num_kv_heads, src_tp, dst_tp)) {
    add_scaled(total, piece_plane_bytes(method, g, f.heads, g.num_layers, tokens, measured_size_ratio), 1);
  }
  return total;
}

}  // namespace lynxsim::serving
