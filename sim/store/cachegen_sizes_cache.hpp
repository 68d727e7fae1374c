#pragma once
// The on-disk cache of measured CacheGen sizes (accuracy::measure_cachegen_sizes), cache_file.hpp's
// conventions. The key lists every input: geometry, chunking, sampled layers, seed, delta, every
// level's bins, and the profile's canonical JSON or the captured KV's identity, with
// accuracy::kCacheGenSizesVersion. The entry is {chunk_tokens, sampled_layers, levels: [{name,
// bytes_per_token_per_layer, bytes_per_token, ratio_to_bf16}]}.

#include <string>

#include "sim/accuracy/methods/cachegen_sizes.hpp"

namespace lynxsim::store {

std::string cachegen_sizes_cache_key(const accuracy::CacheGenSizeRequest& request);
// Reads the cached sizes when present (from_cache set), otherwise measures and stores them; an
// empty cache_dir measures without the cache.
accuracy::CacheGenSizes run_cachegen_sizes(const accuracy::CacheGenSizeRequest& request, const std::string& cache_dir);

}  // namespace lynxsim::store
