#include "sim/accuracy/methods/llm_kv_methods.hpp"

#include <cstddef>

#include "sim/accuracy/methods/method_codec.hpp"

namespace lynxsim::accuracy {
namespace {

std::size_t idx(int a, int b) { return static_cast<std::size_t>(a) * static_cast<std::size_t>(b); }

void per_head(std::vector<float>& data, const llm::LayerKv& kv, const KvVariant& v, const CodecTarget& target) {
  const std::size_t block = idx(kv.n_tokens, kv.head_dim);
  for (int h = 0; h < kv.n_kv_heads; ++h) {
    const auto first = data.begin() + static_cast<std::ptrdiff_t>(idx(h, 1) * block);
    const quant::BlockView view(std::span<const float>(&*first, block), kv.n_tokens, kv.head_dim);
    const std::vector<float> out = reconstruct_block(v.method, target, view);
    std::copy(out.begin(), out.end(), first);
  }
}

void whole_layer(std::vector<float>& data, const llm::LayerKv& kv, const KvVariant& v, const CodecTarget& target) {
  const int width = kv.n_kv_heads * kv.head_dim;
  std::vector<float> chunk(idx(kv.n_tokens, width));
  for (int h = 0; h < kv.n_kv_heads; ++h) {
    for (int t = 0; t < kv.n_tokens; ++t) {
      const float* src = data.data() + idx(h * kv.n_tokens + t, kv.head_dim);
      std::copy(src, src + kv.head_dim, chunk.data() + idx(t, width) + idx(h, kv.head_dim));
    }
  }
  const std::vector<float> out = reconstruct_block(v.method, target, quant::BlockView(chunk, kv.n_tokens, width));
  for (int h = 0; h < kv.n_kv_heads; ++h) {
    for (int t = 0; t < kv.n_tokens; ++t) {
      const float* src = out.data() + idx(t, width) + idx(h, kv.head_dim);
      std::copy(src, src + kv.head_dim, data.data() + idx(h * kv.n_tokens + t, kv.head_dim));
    }
  }
}

}  // namespace

std::string KvVariant::label() const { return method.speculative() ? method.name + " " + variant() : method.name; }

std::vector<KvVariant> kv_variants_of(const std::vector<MethodSpec>& methods) {
  std::vector<KvVariant> out;
  for (const auto& m : methods) {
    if (m.speculative()) out.push_back(KvVariant{m, true});
    out.push_back(KvVariant{m, false});
  }
  return out;
}

void apply_kv_method(llm::KvCache& cache, const KvVariant& variant) {
  check_measurable(variant.method);
  if (cache.size() == 0) return;
  const int num_layers = cache.n_layers();
  cache.transform([&](int layer, llm::LayerKv& kv) {
    for (const TensorKind kind : {TensorKind::key, TensorKind::value}) {
      const CodecTarget target{kind, variant.anchor_only, layer, num_layers};
      std::vector<float>& data = kind == TensorKind::key ? kv.keys : kv.values;
      if (variant.method.family == MethodFamily::cachegen) {
        whole_layer(data, kv, variant, target);
      } else {
        per_head(data, kv, variant, target);
      }
    }
  });
}

std::vector<int> dedupe_variants(const std::vector<KvVariant>& variants) {
  std::vector<int> out;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const std::string id = reconstruction_id(variants[i].method, variants[i].anchor_only);
    int first = static_cast<int>(i);
    for (std::size_t j = 0; j < i; ++j) {
      if (reconstruction_id(variants[j].method, variants[j].anchor_only) == id) {
        first = static_cast<int>(j);
        break;
      }
    }
    out.push_back(first);
  }
  return out;
}

}  // namespace lynxsim::accuracy
