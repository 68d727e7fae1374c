#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/accuracy/methods/cachegen_sizes.hpp"
#include "sim/accuracy/result_cache.hpp"

namespace lynxsim::accuracy {
namespace {

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

CacheGenSizes sizes_from_json(const nlohmann::json& j, const KvGeometry& geometry) {
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

std::optional<CacheGenSizes> load_cached(const std::string& dir, const std::string& key, const KvGeometry& g) {
  std::ifstream in(cache_file_path(dir, key));
  if (!in) return std::nullopt;
  try {
    const nlohmann::json doc = nlohmann::json::parse(in);
    if (doc.at("cache_key").get<std::string>() != key) return std::nullopt;
    return sizes_from_json(doc.at("result"), g);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void store_cached(const std::string& dir, const std::string& key, const CacheGenSizes& sizes) {
  static std::atomic<std::uint64_t> counter{0};
  std::filesystem::create_directories(dir);
  const std::string final_path = cache_file_path(dir, key);
  const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  const std::string temp_path =
      final_path + ".tmp." + std::to_string(stamp) + "." + std::to_string(counter.fetch_add(1));
  {
    std::ofstream out(temp_path, std::ios::trunc);
    out << nlohmann::json{{"cache_key", key}, {"result", sizes_to_json(sizes)}}.dump(1) << '\n';
    if (!out) throw std::runtime_error("cannot write CacheGen size cache file " + temp_path);
  }
  std::filesystem::rename(temp_path, final_path);
}

}  // namespace

CacheGenSizes run_cachegen_sizes(const CacheGenSizeRequest& request) {
  if (request.cache_dir.empty()) return measure_cachegen_sizes(request);
  const std::string key = cachegen_sizes_cache_key(request);
  if (auto cached = load_cached(request.cache_dir, key, request.geometry)) {
    cached->from_cache = true;
    return *cached;
  }
  CacheGenSizes sizes = measure_cachegen_sizes(request);
  store_cached(request.cache_dir, key, sizes);
  return sizes;
}

}  // namespace lynxsim::accuracy
