#include <doctest/doctest.h>

#include <filesystem>

#include "accuracy_test_util.hpp"
#include "sim/accuracy/methods/cachegen_sizes.hpp"
#include "sim/accuracy/methods/method_codec.hpp"
#include "sim/accuracy/kv/synthetic_kv.hpp"
#include "sim/quant/cachegen_codec.hpp"

using namespace lynxsim::accuracy;
namespace quant = lynxsim::quant;

namespace {

// 8 layers, 2 KV heads of 128: two bins classes for keys (early 3 layers) and values (early 1).
KvGeometry eight_layers() { return KvGeometry{"test-8l", 8, 2, 8, 128, 500000.0}; }

CacheGenSizeRequest small_request() {
  CacheGenSizeRequest r;
  r.geometry = eight_layers();
  r.chunk_tokens = 300;
  r.sampled_layers = 2;
  return r;
}

// Per-token int8 with one fp16 scale and zero per head: (8 + 32 / 128) / 16 of bf16.
constexpr double kInt8Ratio = (8.0 + 32.0 / 128.0) / 16.0;

}  // namespace

TEST_CASE("CacheGen sizes shrink level by level and sit 3-6x below int8 at the paper's level") {
  const CacheGenSizes sizes = measure_cachegen_sizes(small_request());
  REQUIRE(sizes.levels.size() == 4);
  for (std::size_t l = 1; l < sizes.levels.size(); ++l) {
    CHECK(sizes.levels[l].bytes_per_token < sizes.levels[l - 1].bytes_per_token);
  }
  const double vs_int8 = kInt8Ratio / sizes.levels[1].ratio_to_bf16;
  CHECK(vs_int8 > 3.0);
  CHECK(vs_int8 < 6.0);
  const double bf16 = 4.0 * 2 * 128 * 8;
  CHECK(sizes.levels[1].ratio_to_bf16 == doctest::Approx(sizes.levels[1].bytes_per_token / bf16));
}

TEST_CASE("CacheGen sizes sample the first layer of every bins class and interpolate inside a class") {
  const CacheGenSizeRequest r = small_request();
  const std::vector<int> layers = cachegen_sampled_layers(r.geometry, quant::cachegen_default_levels(), 2);
  CHECK(layers == std::vector<int>{0, 1, 3, 7});
  const CacheGenSizes sizes = measure_cachegen_sizes(r);
  const auto& b = sizes.levels[1].bytes_per_token_per_layer;
  REQUIRE(b.size() == 8);
  CHECK(b[2] == doctest::Approx(b[1]));
  CHECK(b[5] == doctest::Approx(b[3] + (b[7] - b[3]) * 2.0 / 4.0));
  CHECK(b[0] > b[3]);
}

TEST_CASE("decoding the coded chunk gives the accuracy path's cachegen reconstruction bit for bit") {
  const KvGeometry g{"one-head", 4, 1, 4, 128, 500000.0};
  const HeadKv head = generate_synthetic_head(g, default_kv_profile(), 2, 0, 400, {399}, 7);
  const quant::KvChunkView view{head.keys, head.values, 400, 128};
  const quant::EncodedChunk chunk = quant::cachegen_encode(view, 2, 4, 1);
  const quant::DecodedChunk decoded = quant::cachegen_decode(chunk);
  MethodSpec method = method_from_name("cachegen");
  const lynxsim::quant::BlockView keys(head.keys, 400, 128);
  const lynxsim::quant::BlockView values(head.values, 400, 128);
  CHECK(reconstruct_block(method, CodecTarget{TensorKind::key, false, 2, 4}, keys) == decoded.keys);
  CHECK(reconstruct_block(method, CodecTarget{TensorKind::value, false, 2, 4}, values) == decoded.values);
}

TEST_CASE("CacheGen size requests are checked") {
  CacheGenSizeRequest r = small_request();
  r.chunk_tokens = 1;
  CHECK_THROWS_AS(measure_cachegen_sizes(r), std::invalid_argument);
}

TEST_CASE("CacheGen on a Llama-3.1-8B geometry codes 1500-token chunks 3-6x smaller than int8") {
  CacheGenSizeRequest r;
  r.geometry = KvGeometry{"llama-3.1-8b", 32, 8, 32, 128, 500000.0};
  r.sampled_layers = 4;
  const CacheGenSizes sizes = measure_cachegen_sizes(r);
  CHECK(sizes.sampled_layers == std::vector<int>{0, 2, 10, 21, 31});
  for (const auto& level : sizes.levels) {
    MESSAGE(level.name, ": ratio to bf16 ", level.ratio_to_bf16, ", int8 / cachegen ", kInt8Ratio / level.ratio_to_bf16);
  }
  const double vs_int8 = kInt8Ratio / sizes.levels[1].ratio_to_bf16;
  CHECK(vs_int8 > 3.0);
  CHECK(vs_int8 < 6.0);
}
