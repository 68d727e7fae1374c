#include "sim/accuracy/real_model/real_model_cache.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/accuracy/real_model/real_model_json.hpp"
#include "sim/accuracy/result_cache.hpp"

namespace lynxsim::accuracy {

std::optional<RealModelResult> load_cached_real_result(const std::string& dir, const std::string& key) {
  std::ifstream in(cache_file_path(dir, key));
  if (!in) return std::nullopt;
  try {
    const nlohmann::json doc = nlohmann::json::parse(in);
    if (doc.at("cache_key").get<std::string>() != key) return std::nullopt;
    return real_result_from_json(doc.at("result"));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void store_cached_real_result(const std::string& dir, const std::string& key, const RealModelResult& result) {
  static std::atomic<unsigned> counter{0};
  std::filesystem::create_directories(dir);
  const std::string final_path = cache_file_path(dir, key);
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  const std::string temp_path = final_path + ".tmp." + std::to_string(now) + "." + std::to_string(counter.fetch_add(1));
  {
    std::ofstream out(temp_path, std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write real-model cache file " + temp_path);
    out << nlohmann::json{{"cache_key", key}, {"result", real_result_to_json(result)}}.dump(1) << '\n';
    if (!out) throw std::runtime_error("cannot write real-model cache file " + temp_path);
  }
  std::filesystem::rename(temp_path, final_path);
}

}  // namespace lynxsim::accuracy
