#pragma once
// A KV transfer method applied to a real model's KV cache, as the decode node sees it.
//
// After the prefill node has computed the prompt's K/V (keys after RoPE, as the cache stores them),
// the transfer method quantizes them and the decode node reconstructs them; decoding then attends to
// the reconstruction. apply_kv_method() replaces every K and V the cache holds by that
// reconstruction, layer by layer, with the same kernels as the synthetic measurement
// (method_codec.hpp):
//   bf16                round to bf16;
//   int_n / lynx full   per-token groups of head_dim (lynx full is bit-identical to int8);
//   lynx anchor         the int8 code's first decode_after_planes planes at the bucket middle;
//   kivi                keys per-channel groups, values per-token groups, the last kivi_window
//                       tokens (and the ragged tail) in bf16;
//   lynx-qs             QuantSpec's hierarchical 4+4 (anchor = upper 4-bit code);
//   cachegen            CacheGen's absmax-per-token quantizer on the layer's whole chunk
//                       [tokens][kv_heads·head_dim] (all heads of a token share one absmax), with the
//                       layer's bins; entropy coding is lossless and therefore skipped.
// Every other method runs per (layer, KV head) block [tokens][head_dim]. Tokens appended to the cache
// afterwards (generated on the decode node) keep the model's own full-precision K/V.
//
// KvVariant names one reconstruction; dedupe_variants() keeps one of each set of bit-identical
// variants (reconstruction_id) so a measurement runs it once and copies its numbers.

#include <string>
#include <vector>

#include "sim/accuracy/methods/measured_methods.hpp"
#include "sim/llm/kv_cache.hpp"

namespace lynxsim::accuracy {

struct KvVariant {
  MethodSpec method;
  bool anchor_only = false;

  std::string label() const;  // "int8", "lynx-4+4 anchor"
  std::string variant() const { return anchor_only ? "anchor" : "full"; }
};

// Anchor then full for speculative methods, full alone for the others, in the methods' order.
std::vector<KvVariant> kv_variants_of(const std::vector<MethodSpec>& methods);

// Replaces every stored K/V of `cache` by its reconstruction under the variant.
void apply_kv_method(llm::KvCache& cache, const KvVariant& variant);

// For each variant, the index of the first variant with the same reconstruction (itself if none).
std::vector<int> dedupe_variants(const std::vector<KvVariant>& variants);

}  // namespace lynxsim::accuracy
