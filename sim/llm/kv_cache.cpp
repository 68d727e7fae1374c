#include "sim/llm/kv_cache.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/llm/dequantize.hpp"

namespace lynxsim::llm {

KvCache::KvCache(int n_layers, int n_kv_heads, int head_dim)
    : n_layers_(n_layers), n_kv_heads_(n_kv_heads), head_dim_(head_dim) {
  if (n_layers <= 0 || n_kv_heads <= 0 || head_dim <= 0) {
    throw std::invalid_argument("KvCache dimensions must be positive");
  }
  keys_.resize(static_cast<std::size_t>(n_layers));
  values_.resize(static_cast<std::size_t>(n_layers));
}

void KvCache::check(int layer, int kv_head) const {
  if (layer < 0 || layer >= n_layers_ || kv_head < 0 || kv_head >= n_kv_heads_) {
    throw std::out_of_range("KvCache: layer " + std::to_string(layer) + " / kv head " +
                            std::to_string(kv_head) + " out of range");
  }
}

std::size_t KvCache::offset(int kv_head) const {
  return static_cast<std::size_t>(kv_head) * static_cast<std::size_t>(capacity_) *
         static_cast<std::size_t>(head_dim_);
}

std::span<const float> KvCache::keys(int layer, int kv_head) const {
  check(layer, kv_head);
  return {keys_[layer].data() + offset(kv_head), static_cast<std::size_t>(size_) * head_dim_};
}

std::span<const float> KvCache::values(int layer, int kv_head) const {
  check(layer, kv_head);
  return {values_[layer].data() + offset(kv_head), static_cast<std::size_t>(size_) * head_dim_};
}

std::span<float> KvCache::keys(int layer, int kv_head) {
  check(layer, kv_head);
  return {keys_[layer].data() + offset(kv_head), static_cast<std::size_t>(size_) * head_dim_};
}

std::span<float> KvCache::values(int layer, int kv_head) {
  check(layer, kv_head);
  return {values_[layer].data() + offset(kv_head), static_cast<std::size_t>(size_) * head_dim_};
}

void KvCache::grow(int capacity) {
  const std::size_t row = static_cast<std::size_t>(head_dim_);
  const std::size_t used = static_cast<std::size_t>(size_) * row;
  for (auto* tensors : {&keys_, &values_}) {
    for (std::vector<float>& old : *tensors) {
      std::vector<float> fresh(static_cast<std::size_t>(n_kv_heads_) * capacity * row, 0.0f);
      for (int h = 0; h < n_kv_heads_; ++h) {
        std::copy_n(old.begin() + static_cast<std::ptrdiff_t>(offset(h)), used,
                    fresh.begin() + static_cast<std::ptrdiff_t>(h * capacity * row));
      }
      old.swap(fresh);
    }
  }
  capacity_ = capacity;
}

int KvCache::extend(int count) {
  if (n_layers_ == 0) {
    throw std::logic_error("KvCache::extend on a cache without dimensions");
  }
  if (count < 0) {
    throw std::invalid_argument("KvCache::extend: negative count");
  }
  const int first = size_;
  if (size_ + count > capacity_) {
    grow(std::max(size_ + count, std::max(64, capacity_ * 2)));
  }
  size_ += count;
  return first;
}

void KvCache::truncate(int n_tokens) {
  if (n_tokens < 0 || n_tokens > size_) {
    throw std::invalid_argument("KvCache::truncate: " + std::to_string(n_tokens) +
                                " is not in [0, " + std::to_string(size_) + "]");
  }
  for (int layer = 0; layer < n_layers_; ++layer) {
    for (int h = 0; h < n_kv_heads_; ++h) {
      auto k = keys(layer, h).subspan(static_cast<std::size_t>(n_tokens) * head_dim_);
      auto v = values(layer, h).subspan(static_cast<std::size_t>(n_tokens) * head_dim_);
      std::fill(k.begin(), k.end(), 0.0f);
      std::fill(v.begin(), v.end(), 0.0f);
    }
  }
  size_ = n_tokens;
}

LayerKv KvCache::layer(int layer) const {
  LayerKv out{n_kv_heads_, size_, head_dim_, {}, {}};
  for (int h = 0; h < n_kv_heads_; ++h) {
    const auto k = keys(layer, h);
    const auto v = values(layer, h);
    out.keys.insert(out.keys.end(), k.begin(), k.end());
    out.values.insert(out.values.end(), v.begin(), v.end());
  }
  return out;
}

void KvCache::replace_layer(int layer, const LayerKv& kv) {
  const std::size_t expected = static_cast<std::size_t>(n_kv_heads_) * size_ * head_dim_;
  if (kv.n_kv_heads != n_kv_heads_ || kv.n_tokens != size_ || kv.head_dim != head_dim_ ||
      kv.keys.size() != expected || kv.values.size() != expected) {
    throw std::invalid_argument("KvCache::replace_layer: shape differs from the cache's [" +
                                std::to_string(n_kv_heads_) + "][" + std::to_string(size_) + "][" +
                                std::to_string(head_dim_) + "]");
  }
  const std::size_t block = static_cast<std::size_t>(size_) * head_dim_;
  for (int h = 0; h < n_kv_heads_; ++h) {
    std::copy_n(kv.keys.begin() + static_cast<std::ptrdiff_t>(h * block), block,
                keys(layer, h).begin());
    std::copy_n(kv.values.begin() + static_cast<std::ptrdiff_t>(h * block), block,
                values(layer, h).begin());
  }
}

void KvCache::transform(const std::function<void(int, LayerKv&)>& fn) {
  for (int l = 0; l < n_layers_; ++l) {
    LayerKv kv = layer(l);
    fn(l, kv);
    replace_layer(l, kv);
  }
}

void round_kv_to_bf16(KvCache& cache) {
  for (int l = 0; l < cache.n_layers(); ++l) {
    for (int h = 0; h < cache.n_kv_heads(); ++h) {
      for (auto span : {cache.keys(l, h), cache.values(l, h)}) {
        for (float& x : span) {
          x = bf16_to_float(float_to_bf16(x));
        }
      }
    }
  }
}

}  // namespace lynxsim::llm
