#include "sim/store/cachegen_sizes_cache.hpp"

#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/store/cache_file.hpp"
#include "sim/store/kv_profile_json.hpp"

namespace lynxsim::store {
namespace {

using accuracy::CacheGenLevelSize;
using accuracy::CacheGenSizes;

nlohmann::json sizes_to_json(const CacheGenSizes& s) {
  nlohmann::json levels = nlohmann::json::array();
  for (const auto& l : s.levels) {
    levels.push_back({{"name", l.name},
                      {"bytes_per_token_per_layer", l.bytes_per_token_per_layer},
                      {"bytes_per_token", l.bytes_per_token},
                      {"ratio_to_bf16", l.ratio_to_bf16}});
  }
  return {{"chunk_tokens", s.chunk_tokens}, {"sampled_layers", s.sampled_layers}, {"levels", levels}};
}

CacheGenSizes sizes_from_json(const nlohmann::json& j, const accuracy::KvGeometry& geometry) {
  CacheGenSizes s;
  s.geometry = geometry;
  s.chunk_tokens = j.at("chunk_tokens").get<int>();
  s.sampled_layers = j.at("sampled_layers").get<std::vector<int>>();
  for (const auto& l : j.at("levels")) {
    CacheGenLevelSize size;
    size.name = l.at("name").get<std::string>();
    size.bytes_per_token_per_layer = l.at("bytes_per_token_per_layer").get<std::vector<double>>();
    size.bytes_per_token = l.at("bytes_per_token").get<double>();
    size.ratio_to_bf16 = l.at("ratio_to_bf16").get<double>();
    s.levels.push_back(std::move(size));
  }
  return s;
}

}  // namespace

std::string cachegen_sizes_cache_key(const accuracy::CacheGenSizeRequest& r) {
  std::ostringstream out;
  out << "lynxsim-cachegen-sizes v" << accuracy::kCacheGenSizesVersion << "|" << r.geometry.canonical()
      << "|chunk=" << r.chunk_tokens << "x" << r.num_chunks << "|layers=" << r.sampled_layers << "|seed=" << r.seed
      << "|delta=" << r.delta << "|levels=";
  for (const auto& l : accuracy::cachegen_levels_of(r)) {
    out << l.name << ":" << l.keys.early_bins << "/" << l.keys.late_bins << "/" << l.keys.early_layers_of_32 << ","
        << l.values.early_bins << "/" << l.values.late_bins << "/" << l.values.early_layers_of_32 << ";";
  }
  if (r.kv_file) out << "|" << r.kv_file->identity();
  else out << "|profile=" << kv_profile_canonical(r.profile);
  return out.str();
}

CacheGenSizes run_cachegen_sizes(const accuracy::CacheGenSizeRequest& request, const std::string& cache_dir) {
  if (cache_dir.empty()) return accuracy::measure_cachegen_sizes(request);
  const std::string key = cachegen_sizes_cache_key(request);
  const auto from_json = [&](const nlohmann::json& j) { return sizes_from_json(j, request.geometry); };
  if (auto cached = load_cached<CacheGenSizes>(cache_dir, key, from_json)) {
    cached->from_cache = true;
    return *cached;
  }
  CacheGenSizes sizes = accuracy::measure_cachegen_sizes(request);
  store_cache_entry(cache_dir, key, sizes_to_json(sizes));
  return sizes;
}

}  // namespace lynxsim::store
