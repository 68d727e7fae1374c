#pragma once
// On-disk cache of real-model results, with the conventions of result_cache.hpp: the file
// <dir>/<16 hex digits of FNV-1a 64(key)>.json holds {"cache_key": key, "result": <real_result_to_json>};
// a file whose stored key differs or that does not parse is treated as absent; stores write a
// temporary file and rename it into place.

#include <optional>
#include <string>

#include "sim/accuracy/real_model/real_model_result.hpp"

namespace lynxsim::accuracy {

std::optional<RealModelResult> load_cached_real_result(const std::string& dir, const std::string& key);
void store_cached_real_result(const std::string& dir, const std::string& key, const RealModelResult& result);

}  // namespace lynxsim::accuracy
