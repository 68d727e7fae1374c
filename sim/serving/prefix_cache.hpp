#pragma once
// The KV store's prefix cache: Mooncake-style 512-token blocks named by hash ids, LRU eviction.
//
// A request's prompt is a chain of blocks hash_ids[0..n). The cached prefix is the longest run
// hash_ids[0..h) of blocks all resident in the store; only a prefix is usable because a block's
// KV depends on every token before it. Cached tokens = min(h * block_tokens, context - 1): at least
// one token is always prefilled (its logits give the first token). Every block of a request is
// stored (or refreshed as most recently used) when its prefill finishes. Each block occupies
// block_bytes (the method's encoded KV of block_tokens tokens); when the store is over capacity
// the least recently used blocks are evicted. Capacity 0 means unlimited.
// Hit rate = hit blocks / looked-up blocks, where a lookup counts every block of the request.

#include <cstdint>
#include <list>
#include <span>
#include <unordered_map>

#include "sim/core/units.hpp"

namespace lynxsim::serving {

struct PrefixCacheCounters {
  std::int64_t lookup_blocks = 0;
  std::int64_t hit_blocks = 0;
  std::int64_t evicted_blocks = 0;
};

class PrefixCache {
public:
  PrefixCache(Bytes capacity, Bytes block_bytes);

  // Number of leading blocks resident (refreshing them as most recently used).
  int lookup(std::span<const std::uint32_t> hash_ids);
  void insert(std::span<const std::uint32_t> hash_ids);

  std::size_t resident_blocks() const { return lru_.size(); }
  Bytes used() const { return Bytes{static_cast<std::int64_t>(lru_.size()) * block_bytes_.value}; }
  const PrefixCacheCounters& counters() const { return counters_; }

private:
  void touch(std::uint32_t id);

  Bytes capacity_;
  Bytes block_bytes_;
  std::list<std::uint32_t> lru_;  // front = most recently used
  std::unordered_map<std::uint32_t, std::list<std::uint32_t>::iterator> index_;
  PrefixCacheCounters counters_;
};

}  // namespace lynxsim::serving
