#include "sim/store/accuracy_cache.hpp"

#include <sstream>

#include "sim/store/accuracy_json.hpp"
#include "sim/store/cache_file.hpp"
#include "sim/store/kv_profile_json.hpp"

namespace lynxsim::store {

std::string accuracy_cache_key(const accuracy::AccuracyRequest& r) {
  std::ostringstream out;
  out << "lynxsim-accuracy v" << accuracy::kAccuracyCodeVersion << "|" << r.geometry.canonical()
      << "|context=" << r.context << "|seed=" << r.seed << "|" << r.sampling.canonical() << "|methods=";
  const auto methods = r.methods.empty() ? accuracy::default_methods() : r.methods;
  for (const auto& m : methods) out << m.canonical() << ";";
  if (r.kv_file) out << "|" << r.kv_file->identity();
  out << "|profile=" << kv_profile_canonical(r.profile);
  if (!r.geometry.dense()) out << "|layer_kinds v2|" << r.layer_profiles.canonical();
  return out.str();
}

accuracy::AccuracyResult run_accuracy(const accuracy::AccuracyRequest& request, const std::string& cache_dir) {
  if (cache_dir.empty()) return accuracy::measure_accuracy(request);
  const std::string key = accuracy_cache_key(request);
  if (auto cached = load_cached<accuracy::AccuracyResult>(cache_dir, key, result_from_json)) {
    cached->from_cache = true;
    return *cached;
  }
  accuracy::AccuracyResult result = accuracy::measure_accuracy(request);
  store_cache_entry(cache_dir, key, result_to_json(result));
  return result;
}

}  // namespace lynxsim::store
