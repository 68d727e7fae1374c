#pragma once
// One entry of an on-disk measurement cache (accuracy results, CacheGen sizes, real-model results).
//
// File: <dir>/<16 lowercase hex digits of FNV-1a 64(key)>.json holding {"cache_key": key,
// "result": <the measurement's JSON>}, written with one space of indentation. Entries are read
// through sim/io's checked opener: one that is not a regular file (a FIFO, a link to a device) or
// is larger than io::kMaxCacheEntryBytes is a miss, reported on stderr, never a hang. A file that
// is absent, does not parse (strictly, sim/fields: duplicate keys, another key or a missing one included), or
// whose stored key differs (a hash collision) is a miss: the caller measures again and overwrites it. Stores create the directory and write through report::write_file_atomic (a
// temporary file renamed into place), so concurrent runs never see a partial file.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace lynxsim::store {

std::string cache_file_path(const std::string& dir, const std::string& key);
// The stored "result" of `key`, or nullopt on a miss.
std::optional<nlohmann::json> load_cache_entry(const std::string& dir, const std::string& key);
void store_cache_entry(const std::string& dir, const std::string& key, const nlohmann::json& result);

// Reads the entry with `from_json`; an entry it rejects (throws) is a miss, like one that does not parse.
template <typename T, typename FromJson>
std::optional<T> load_cached(const std::string& dir, const std::string& key, FromJson from_json) {
  const auto entry = load_cache_entry(dir, key);
  if (!entry) return std::nullopt;
  try {
    return from_json(*entry);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace lynxsim::store
