#pragma once
// On-disk cache of accuracy results (see accuracy_run.hpp for the key).
//
// File: <dir>/<16 lowercase hex digits of FNV-1a 64(key)>.json holding {"cache_key": key,
// "result": <accuracy_json>}. A file whose stored key differs (a hash collision) or that does not
// parse is treated as absent. Stores create the directory, write <file>.tmp.<pid-free unique suffix>
// and rename it over the final name, which is atomic on POSIX file systems.

#include <optional>
#include <string>

#include "sim/accuracy/accuracy_result.hpp"

namespace lynxsim::accuracy {

std::string cache_file_path(const std::string& dir, const std::string& key);
std::optional<AccuracyResult> load_cached_result(const std::string& dir, const std::string& key);
void store_cached_result(const std::string& dir, const std::string& key, const AccuracyResult& result);

}  // namespace lynxsim::accuracy
