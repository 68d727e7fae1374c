#pragma once
// The on-disk cache of real-model results (accuracy::measure_real_model), cache_file.hpp's
// conventions, entries in real_model_json.hpp's form. The key holds the model file's path, size and
// modification time, FNV-1a 64 and length of the text, every measurement setting and
// accuracy::kRealModelCodeVersion.

#include <optional>
#include <string>

#include "sim/accuracy/real_model/real_model_eval.hpp"
#include "sim/accuracy/real_model/real_model_result.hpp"

namespace lynxsim::store {

// The request with `text` read from text_path (unchanged when text is already set).
accuracy::RealModelRequest with_text(accuracy::RealModelRequest request);
// The key of a request whose text is set (with_text).
std::string real_model_cache_key(const accuracy::RealModelRequest& request);

std::optional<accuracy::RealModelResult> load_cached_real_result(const std::string& dir, const std::string& key);
void store_cached_real_result(const std::string& dir, const std::string& key, const accuracy::RealModelResult& result);

// Reads the text, then the cached result when present (from_cache set), otherwise loads the model,
// measures and stores; an empty cache_dir measures without the cache.
accuracy::RealModelResult run_real_model(const accuracy::RealModelRequest& request, const std::string& cache_dir);

}  // namespace lynxsim::store
