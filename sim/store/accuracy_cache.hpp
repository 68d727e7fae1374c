#pragma once
// The on-disk cache of precision measurements (accuracy::measure_accuracy), cache_file.hpp's
// conventions: the key lists every input that determines the result (geometry, context, seed,
// sampling, methods, the profile's canonical JSON, for captured KV its identity: path, size and
// modification time; and accuracy::kAccuracyCodeVersion); the entry is accuracy_json.hpp's form.

#include <string>

#include "sim/accuracy/accuracy_run.hpp"

namespace lynxsim::store {

std::string accuracy_cache_key(const accuracy::AccuracyRequest& request);
// Reads the cached result when present (from_cache set), otherwise measures and stores it; an
// empty cache_dir measures without the cache.
accuracy::AccuracyResult run_accuracy(const accuracy::AccuracyRequest& request, const std::string& cache_dir);

}  // namespace lynxsim::store
