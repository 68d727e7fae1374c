#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../accuracy/accuracy_test_util.hpp"
#include "sim/store/accuracy_cache.hpp"
#include "sim/store/accuracy_json.hpp"
#include "sim/store/cache_file.hpp"

using namespace lynxsim::accuracy;
using namespace lynxsim::store;

using testing::small_request;

TEST_CASE("run_accuracy caches on disk keyed by every input") {
  AccuracyRequest r = small_request();
  r.context = 2048;
  r.methods = {method_from_name("int8")};
  const std::string dir = testing::scratch_dir("cache");
  const auto first = run_accuracy(r, dir);
  CHECK_FALSE(first.from_cache);
  CHECK(std::filesystem::exists(cache_file_path(dir, accuracy_cache_key(r))));
  const auto second = run_accuracy(r, dir);
  CHECK(second.from_cache);
  CHECK(result_to_json(first).dump() == result_to_json(second).dump());
  AccuracyRequest other = r;
  other.seed = 4;
  CHECK(accuracy_cache_key(other) != accuracy_cache_key(r));
  other = r;
  other.profile.needle_margin = 4.0;
  CHECK(accuracy_cache_key(other) != accuracy_cache_key(r));
  CHECK_FALSE(run_accuracy(other, dir).from_cache);
}

TEST_CASE("a malformed or foreign cache entry is a miss, measured again and rewritten") {
  AccuracyRequest r = small_request();
  r.context = 1024;
  r.methods = {method_from_name("int8")};
  const std::string dir = testing::scratch_dir("cache_malformed");
  const std::string file = cache_file_path(dir, accuracy_cache_key(r));
  std::ofstream(file) << "{\"cache_key\": ";
  const AccuracyResult measured = run_accuracy(r, dir);
  CHECK_FALSE(measured.from_cache);
  CHECK(run_accuracy(r, dir).from_cache);
  std::ofstream(file) << nlohmann::json{{"cache_key", "another key"}, {"result", result_to_json(measured)}}.dump();
  CHECK_FALSE(run_accuracy(r, dir).from_cache);
  std::ofstream(file) << nlohmann::json{{"cache_key", accuracy_cache_key(r)}, {"result", {{"context", "x"}}}}.dump();
  CHECK_FALSE(run_accuracy(r, dir).from_cache);
  CHECK(run_accuracy(r, dir).from_cache);
}
