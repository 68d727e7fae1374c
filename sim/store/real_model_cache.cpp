#include "sim/store/real_model_cache.hpp"

#include <filesystem>
#include <sstream>

#include "sim/core/rng.hpp"
#include "sim/io/input_file.hpp"
#include "sim/store/cache_file.hpp"
#include "sim/store/real_model_json.hpp"
#include "sim/store/text_file.hpp"

namespace lynxsim::store {

using accuracy::RealModelRequest;
using accuracy::RealModelResult;

RealModelRequest with_text(RealModelRequest request) {
  if (request.text.empty()) request.text = read_text_file(request.text_path);
  return request;
}

std::string real_model_cache_key(const RealModelRequest& r) {
  r.validate();
  std::ostringstream out;
  const auto model_path = std::filesystem::path(r.model_path);
  out << "lynxsim-real-model v" << accuracy::kRealModelCodeVersion << "|model=" << model_path.string()
      << "|size=" << io::InputFile(model_path, io::kMaxModelFileBytes).size()
      << "|mtime=" << std::filesystem::last_write_time(model_path).time_since_epoch().count();
  out << "|text=" << fnv1a64(r.text) << "/" << r.text.size() << "|contexts=";
  for (const int c : r.contexts) out << c << ",";
  out << "|methods=";
  for (const auto& m : r.methods.empty() ? accuracy::default_methods() : r.methods) out << m.canonical() << ";";
  out << "|k_max=" << r.k_max << "|samples=" << r.acceptance_samples << "x" << r.acceptance_stride
      << "|continuation=" << r.continuation_tokens << "|passkey=";
  for (const int c : r.passkey_contexts) out << c << ",";
  out << "/";
  for (const double d : r.passkey_depths) out << d << ",";
  out << "/" << r.passkey_trials << (r.passkey_in_text ? "|passkey_in_text" : "") << "|seed=" << r.seed;
  return out.str();
}

std::optional<RealModelResult> load_cached_real_result(const std::string& dir, const std::string& key) {
  return load_cached<RealModelResult>(dir, key, real_result_from_json);
}

void store_cached_real_result(const std::string& dir, const std::string& key, const RealModelResult& result) {
  store_cache_entry(dir, key, real_result_to_json(result));
}

RealModelResult run_real_model(const RealModelRequest& request, const std::string& cache_dir) {
  const RealModelRequest r = with_text(request);
  const std::string key = cache_dir.empty() ? std::string() : real_model_cache_key(r);
  if (!key.empty()) {
    if (auto cached = load_cached_real_result(cache_dir, key)) {
      cached->from_cache = true;
      return *cached;
    }
  }
  r.validate();
  const llm::Model model = llm::Model::load(r.model_path);
  RealModelResult result = accuracy::measure_real_model(model, r);
  if (!key.empty()) store_cached_real_result(cache_dir, key, result);
  return result;
}

}  // namespace lynxsim::store
