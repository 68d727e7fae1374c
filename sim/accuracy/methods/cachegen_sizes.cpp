#include "sim/core/parallel_for.hpp"
#include "sim/accuracy/methods/cachegen_sizes.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>

#include "sim/accuracy/accuracy_run.hpp"
#include "sim/accuracy/kv/synthetic_kv.hpp"
#include "sim/quant/cachegen_codec.hpp"

namespace lynxsim::accuracy {
namespace {

using quant::CacheGenLevel;

void check_request(const CacheGenSizeRequest& r) {
  r.geometry.validate();
  if (r.chunk_tokens < 2) throw std::invalid_argument("CacheGen sizes: chunk_tokens must be >= 2");
  if (r.num_chunks < 1) throw std::invalid_argument("CacheGen sizes: num_chunks must be >= 1");
  if (r.sampled_layers < 1) throw std::invalid_argument("CacheGen sizes: sampled_layers must be >= 1");
  if (r.threads < 1) throw std::invalid_argument("CacheGen sizes: threads must be >= 1");
}

std::pair<int, int> bins_class(const CacheGenLevel& level, int layer, int num_layers) {
  return {quant::cachegen_bins(level, quant::KvKind::Key, layer, num_layers),
          quant::cachegen_bins(level, quant::KvKind::Value, layer, num_layers)};
}

struct LayerTensors {
  std::vector<float> keys;
  std::vector<float> values;
};

void place_head(LayerTensors& out, const std::vector<float>& keys, const std::vector<float>& values,
                int head, int tokens, const KvGeometry& g) {
  const auto d = static_cast<std::size_t>(g.head_dim);
  const auto width = d * static_cast<std::size_t>(g.num_kv_heads);
  for (std::size_t t = 0; t < static_cast<std::size_t>(tokens); ++t) {
    const std::size_t to = t * width + static_cast<std::size_t>(head) * d;
    std::copy_n(keys.begin() + static_cast<std::ptrdiff_t>(t * d), d, out.keys.begin() + static_cast<std::ptrdiff_t>(to));
    std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(t * d), d, out.values.begin() + static_cast<std::ptrdiff_t>(to));
  }
}

LayerTensors layer_tensors(const CacheGenSizeRequest& r, const KvTensors* file, int layer) {
  const KvGeometry& g = r.geometry;
  const int tokens = r.chunk_tokens * r.num_chunks;
  const std::size_t n = static_cast<std::size_t>(tokens) * static_cast<std::size_t>(g.num_kv_heads * g.head_dim);
  LayerTensors out{std::vector<float>(n), std::vector<float>(n)};
  for (int h = 0; h < g.num_kv_heads; ++h) {
    if (file) {
      place_head(out, file->keys(layer, h, tokens), file->values(layer, h, tokens), h, tokens, g);
      continue;
    }
    const HeadKv head = generate_synthetic_head(g, r.profile, layer, h, tokens, {tokens - 1}, r.seed);
    place_head(out, head.keys, head.values, h, tokens, g);
  }
  return out;
}

// Encoded bytes per token of one layer at every level.
std::vector<double> encode_layer(const CacheGenSizeRequest& r, const KvTensors* file, int layer) {
  const LayerTensors kv = layer_tensors(r, file, layer);
  const auto& levels = cachegen_levels_of(r);
  const std::size_t channels = static_cast<std::size_t>(r.geometry.num_kv_heads * r.geometry.head_dim);
  const std::size_t chunk_floats = static_cast<std::size_t>(r.chunk_tokens) * channels;
  quant::CacheGenOptions options;
  options.delta = r.delta;
  options.levels = levels;
  std::vector<double> out(levels.size(), 0.0);
  for (int c = 0; c < r.num_chunks; ++c) {
    const std::size_t at = static_cast<std::size_t>(c) * chunk_floats;
    const quant::KvChunkView view{std::span<const float>(kv.keys).subspan(at, chunk_floats),
                                  std::span<const float>(kv.values).subspan(at, chunk_floats),
                                  static_cast<std::size_t>(r.chunk_tokens), channels};
    for (std::size_t l = 0; l < levels.size(); ++l) {
      const auto chunk = quant::cachegen_encode(view, layer, r.geometry.num_layers, static_cast<int>(l), options);
      out[l] += static_cast<double>(chunk.bytes());
    }
  }
  for (double& b : out) b /= static_cast<double>(r.chunk_tokens) * r.num_chunks;
  return out;
}

std::vector<std::vector<double>> encode_layers(const CacheGenSizeRequest& r, const std::vector<int>& layers) {
  const KvTensors* file = r.kv_file.get();
  std::vector<std::vector<double>> per_layer(layers.size());
  parallel_for(layers.size(), r.threads,
               [&](std::size_t i) { per_layer[i] = encode_layer(r, file, layers[i]); });
  return per_layer;
}

// b(layer) for every layer from the sampled values of one level (see the header essay).
std::vector<double> assign_layers(const CacheGenLevel& level, int num_layers, const std::vector<int>& sampled,
                                  const std::vector<double>& sampled_bytes) {
  std::vector<double> out(static_cast<std::size_t>(num_layers), 0.0);
  for (int l = 0; l < num_layers; ++l) {
    const auto cls = bins_class(level, l, num_layers);
    std::optional<std::size_t> below;
    std::optional<std::size_t> above;
    for (std::size_t i = 0; i < sampled.size(); ++i) {
      if (bins_class(level, sampled[i], num_layers) != cls) continue;
      if (sampled[i] <= l) below = i;
      if (sampled[i] >= l && !above) above = i;
    }
    if (!below && !above) throw std::logic_error("CacheGen sizes: a bins class has no sampled layer");
    if (!below || !above || *below == *above) {
      out[static_cast<std::size_t>(l)] = sampled_bytes[below ? *below : *above];
      continue;
    }
    const double w = static_cast<double>(l - sampled[*below]) / (sampled[*above] - sampled[*below]);
    out[static_cast<std::size_t>(l)] = (1.0 - w) * sampled_bytes[*below] + w * sampled_bytes[*above];
  }
  return out;
}

}  // namespace

std::vector<double> CacheGenSizes::ratios() const {
  std::vector<double> out;
  for (const auto& l : levels) out.push_back(l.ratio_to_bf16);
  return out;
}

std::vector<int> cachegen_sampled_layers(const KvGeometry& g, const std::vector<CacheGenLevel>& levels, int count) {
  const std::vector<int> even = sample_indices(g.num_layers, count);
  std::set<int> layers(even.begin(), even.end());
  for (const auto& level : levels) {
    for (int l = 0; l < g.num_layers; ++l) {
      if (l == 0 || bins_class(level, l, g.num_layers) != bins_class(level, l - 1, g.num_layers)) layers.insert(l);
    }
  }
  return {layers.begin(), layers.end()};
}

const std::vector<CacheGenLevel>& cachegen_levels_of(const CacheGenSizeRequest& r) {
  return r.levels.empty() ? quant::cachegen_default_levels() : r.levels;
}

CacheGenSizes measure_cachegen_sizes(const CacheGenSizeRequest& r) {
  check_request(r);
  const auto& levels = cachegen_levels_of(r);
  CacheGenSizes result;
  result.geometry = r.geometry;
  result.chunk_tokens = r.chunk_tokens;
  result.sampled_layers = cachegen_sampled_layers(r.geometry, levels, r.sampled_layers);
  const auto per_layer = encode_layers(r, result.sampled_layers);
  const double bf16_per_token = 4.0 * r.geometry.num_kv_heads * r.geometry.head_dim * r.geometry.num_layers;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    std::vector<double> sampled_bytes;
    for (const auto& layer : per_layer) sampled_bytes.push_back(layer[l]);
    CacheGenLevelSize size;
    size.name = levels[l].name;
    size.bytes_per_token_per_layer = assign_layers(levels[l], r.geometry.num_layers, result.sampled_layers, sampled_bytes);
    for (const double b : size.bytes_per_token_per_layer) size.bytes_per_token += b;
    size.ratio_to_bf16 = size.bytes_per_token / bf16_per_token;
    result.levels.push_back(std::move(size));
  }
  return result;
}

}  // namespace lynxsim::accuracy
