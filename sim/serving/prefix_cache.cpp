#include "sim/serving/prefix_cache.hpp"

#include <stdexcept>

namespace lynxsim::serving {

// Blocks are refreshed last to first, so a chain's first block is its most recently used and a
// prefix is evicted from its tail.
PrefixCache::PrefixCache(Bytes capacity, Bytes block_bytes)
    : capacity_(capacity), block_bytes_(block_bytes) {
  if (capacity.value < 0 || block_bytes.value <= 0) {
    throw std::invalid_argument("prefix cache: capacity must be >= 0 and blocks non-empty");
  }
}

int PrefixCache::lookup(std::span<const std::uint32_t> hash_ids) {
  counters_.lookup_blocks += static_cast<std::int64_t>(hash_ids.size());
  int hits = 0;
  while (static_cast<std::size_t>(hits) < hash_ids.size() &&
         index_.contains(hash_ids[static_cast<std::size_t>(hits)])) {
    ++hits;
  }
  for (int i = hits - 1; i >= 0; --i) touch(hash_ids[static_cast<std::size_t>(i)]);
  counters_.hit_blocks += hits;
  return hits;
}

void PrefixCache::touch(std::uint32_t id) {
  const auto it = index_.find(id);
  if (it != index_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  lru_.push_front(id);
  index_.emplace(id, lru_.begin());
}

void PrefixCache::insert(std::span<const std::uint32_t> hash_ids) {
  for (auto it = hash_ids.rbegin(); it != hash_ids.rend(); ++it) touch(*it);
  if (capacity_.value == 0) return;
  while (!lru_.empty() && used() > capacity_) {
    index_.erase(lru_.back());
    lru_.pop_back();
    ++counters_.evicted_blocks;
  }
}

}  // namespace lynxsim::serving
