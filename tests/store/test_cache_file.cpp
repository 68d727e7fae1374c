#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "../accuracy/accuracy_test_util.hpp"
#include "sim/store/cache_file.hpp"

using namespace lynxsim::store;

namespace {

void write(const std::string& file, const std::string& text) { std::ofstream(file, std::ios::trunc) << text; }

}  // namespace

TEST_CASE("a cache entry is read strictly: anything but exactly its key and result is a miss") {
  const std::string dir = lynxsim::accuracy::testing::scratch_dir("cache_strict");
  const std::string key = "k|v=1";
  store_cache_entry(dir, key, nlohmann::json{{"x", 1.25}});
  REQUIRE(load_cache_entry(dir, key).has_value());
  CHECK(load_cache_entry(dir, key)->at("x") == 1.25);
  const std::string file = cache_file_path(dir, key);
  write(file, R"({"cache_key": "k|v=1", "result": {"x": 1}, "result": {"x": 2}})");
  CHECK_FALSE(load_cache_entry(dir, key).has_value());
  write(file, R"({"cache_key": "k|v=1", "result": {"x": 1}, "extra": 0})");
  CHECK_FALSE(load_cache_entry(dir, key).has_value());
  write(file, R"({"cache_key": "k|v=1"})");
  CHECK_FALSE(load_cache_entry(dir, key).has_value());
  write(file, R"({"cache_key": 7, "result": {}})");
  CHECK_FALSE(load_cache_entry(dir, key).has_value());
  write(file, R"([1, 2])");
  CHECK_FALSE(load_cache_entry(dir, key).has_value());
  write(file, R"({"cache_key": "k|v=1", "result": {"x": 3}})");
  CHECK(load_cache_entry(dir, key)->at("x") == 3);
}

TEST_CASE("a cache entry that is not a regular file, or too large, is a miss and never blocks") {
  const std::string dir = lynxsim::accuracy::testing::scratch_dir("cache_not_regular");
  const std::string key = "k|v=2";
  const std::string file = cache_file_path(dir, key);
  std::filesystem::remove(file);
  REQUIRE(::mkfifo(file.c_str(), 0600) == 0);
  CHECK_FALSE(load_cache_entry(dir, key).has_value());
  std::filesystem::remove(file);
  std::filesystem::create_symlink("/dev/zero", file);
  CHECK_FALSE(load_cache_entry(dir, key).has_value());
  std::filesystem::remove(file);
  std::ofstream(file).close();
  std::filesystem::resize_file(file, (64ull << 20) + 1);
  CHECK_FALSE(load_cache_entry(dir, key).has_value());
  store_cache_entry(dir, key, nlohmann::json{{"x", 5}});
  CHECK(load_cache_entry(dir, key)->at("x") == 5);
}
