#include "sim/accuracy/result_cache.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/accuracy/accuracy_json.hpp"
#include "sim/accuracy/accuracy_rng.hpp"

namespace lynxsim::accuracy {
namespace {

std::string hex16(std::uint64_t value) {
  static const char* digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = digits[value & 0xFU];
    value >>= 4U;
  }
  return out;
}

std::string unique_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return hex16(static_cast<std::uint64_t>(now) ^ (counter.fetch_add(1) << 48U));
}

}  // namespace

std::string cache_file_path(const std::string& dir, const std::string& key) {
  return (std::filesystem::path(dir) / (hex16(fnv1a64(key)) + ".json")).string();
}

std::optional<AccuracyResult> load_cached_result(const std::string& dir, const std::string& key) {
  std::ifstream in(cache_file_path(dir, key));
  if (!in) return std::nullopt;
  try {
    const nlohmann::json doc = nlohmann::json::parse(in);
    if (doc.at("cache_key").get<std::string>() != key) return std::nullopt;
    return result_from_json(doc.at("result"));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void store_cached_result(const std::string& dir, const std::string& key, const AccuracyResult& result) {
  std::filesystem::create_directories(dir);
  const std::string final_path = cache_file_path(dir, key);
  const std::string temp_path = final_path + ".tmp." + unique_suffix();
  {
    std::ofstream out(temp_path, std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write accuracy cache file " + temp_path);
    out << nlohmann::json{{"cache_key", key}, {"result", result_to_json(result)}}.dump(1) << '\n';
    if (!out) throw std::runtime_error("cannot write accuracy cache file " + temp_path);
  }
  std::filesystem::rename(temp_path, final_path);
}

}  // namespace lynxsim::accuracy
