#include "sim/store/cache_file.hpp"

#include <filesystem>
#include <fmt/format.h>

#include "sim/core/printable.hpp"
#include "sim/core/rng.hpp"
#include "sim/fields/object_reader.hpp"
#include "sim/fields/strict_json.hpp"
#include "sim/io/input_file.hpp"
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
  const std::filesystem::path file = cache_file_path(dir, key);
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return std::nullopt;
  std::string text;
  try {
    text = io::read_input_file(file, io::kMaxCacheEntryBytes);
  } catch (const io::InputFileError& e) {
    fmt::print(stderr, "lynxsim: warning: cache entry ignored, measuring again: {}\n", terminal_text(e.what()));
    return std::nullopt;
  }
  try {
    const nlohmann::json doc = fields::parse_strict_json(text);
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
