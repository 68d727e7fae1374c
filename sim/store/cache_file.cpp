#include "sim/store/cache_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/rng.hpp"
#include "sim/fields/object_reader.hpp"
#include "sim/fields/strict_json.hpp"
#include "sim/report/atomic_write.hpp"

namespace lynxsim::store {
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

}  // namespace

std::string cache_file_path(const std::string& dir, const std::string& key) {
  return (std::filesystem::path(dir) / (hex16(fnv1a64(key)) + ".json")).string();
}

std::optional<nlohmann::json> load_cache_entry(const std::string& dir, const std::string& key) {
  std::ifstream in(cache_file_path(dir, key), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  try {
    const nlohmann::json doc = fields::parse_strict_json(text.str());
    fields::IssueList issues;
    fields::ObjectReader r(doc, "", issues);
    const auto stored_key = r.text("cache_key", true);
    const nlohmann::json* result = r.get("result", true);
    r.finish();
    if (!issues.empty() || stored_key != key || result == nullptr) return std::nullopt;
    return *result;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void store_cache_entry(const std::string& dir, const std::string& key, const nlohmann::json& result) {
  std::filesystem::create_directories(dir);
  const nlohmann::json doc{{"cache_key", key}, {"result", result}};
  report::write_file_atomic(cache_file_path(dir, key), doc.dump(1) + "\n");
}

}  // namespace lynxsim::store
