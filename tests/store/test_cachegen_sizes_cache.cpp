#include <doctest/doctest.h>

#include <string>

#include "../accuracy/accuracy_test_util.hpp"
#include "sim/store/cachegen_sizes_cache.hpp"

using namespace lynxsim::accuracy;
using namespace lynxsim::store;

namespace {

CacheGenSizeRequest small_request() {
  CacheGenSizeRequest r;
  r.geometry = KvGeometry{"test-8l", 8, 2, 8, 128, 500000.0};
  r.chunk_tokens = 300;
  r.sampled_layers = 2;
  return r;
}

}  // namespace

TEST_CASE("CacheGen sizes are cached on disk and read back identically") {
  CacheGenSizeRequest r = small_request();
  const std::string dir = testing::scratch_dir("cachegen_sizes");
  const CacheGenSizes first = run_cachegen_sizes(r, dir);
  CHECK_FALSE(first.from_cache);
  const CacheGenSizes second = run_cachegen_sizes(r, dir);
  CHECK(second.from_cache);
  REQUIRE(second.levels.size() == first.levels.size());
  for (std::size_t l = 0; l < first.levels.size(); ++l) {
    CHECK(second.levels[l].ratio_to_bf16 == first.levels[l].ratio_to_bf16);
    CHECK(second.levels[l].bytes_per_token_per_layer == first.levels[l].bytes_per_token_per_layer);
  }
  r.seed = 2;
  CHECK_FALSE(run_cachegen_sizes(r, dir).from_cache);
}
