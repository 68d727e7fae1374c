#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "sim/quant/cachegen_codec.hpp"
#include "sim/quant/half_precision.hpp"
#include "test_cachegen_synthetic.hpp"

using namespace lynxsim::quant;
using cachegen_test::make_synthetic_layer;
using cachegen_test::SyntheticLayer;

namespace {

KvChunkView view_of(const SyntheticLayer& layer) {
  return KvChunkView{layer.keys, layer.values, layer.num_tokens, layer.num_channels};
}

std::vector<float> reference_decode(const std::vector<float>& x, const SyntheticLayer& layer,
                                    int bins) {
  return cachegen_dequantize(cachegen_quantize(x, layer.num_tokens, layer.num_channels, bins));
}

}  // namespace

TEST_CASE("cachegen decoding returns the quantizer's values bit for bit") {
  const SyntheticLayer layer = make_synthetic_layer(300, 2, 64, 5);
  for (const bool delta : {false, true}) {
    for (const int layer_index : {0, 5, 31}) {
      CacheGenOptions options;
      options.delta = delta;
      options.delta_group_tokens = 7;
      const EncodedChunk chunk = cachegen_encode(view_of(layer), layer_index, 32, 1, options);
      const DecodedChunk decoded = cachegen_decode(chunk);
      CAPTURE(delta);
      CAPTURE(layer_index);
      CHECK(decoded.keys == reference_decode(layer.keys, layer, chunk.keys.bins));
      CHECK(decoded.values == reference_decode(layer.values, layer, chunk.values.bins));
    }
  }
}

TEST_CASE("cachegen error stays within half a step of each token's scale") {
  const SyntheticLayer layer = make_synthetic_layer(200, 2, 64, 6);
  const EncodedChunk chunk = cachegen_encode(view_of(layer), 20, 32, 1);
  const DecodedChunk decoded = cachegen_decode(chunk);
  const int h = cachegen_half_levels(chunk.keys.bins);
  REQUIRE(h == 7);
  double worst_ratio = 0.0;
  for (std::size_t t = 0; t < layer.num_tokens; ++t) {
    const double step = fp16_to_float(chunk.keys.scales_fp16[t]) / h;
    for (std::size_t c = 0; c < layer.num_channels; ++c) {
      const std::size_t i = t * layer.num_channels + c;
      worst_ratio = std::max(worst_ratio, std::fabs(layer.keys[i] - decoded.keys[i]) / step);
    }
  }
  CHECK(worst_ratio <= 0.5 + 1e-3);
  CHECK(worst_ratio > 0.45);
}

TEST_CASE("cachegen gives deeper layers fewer bins, scaled to the model depth") {
  const CacheGenLevel& paper = cachegen_default_levels().at(1);
  CHECK(cachegen_bins(paper, KvKind::Key, 9, 32) == 32);
  CHECK(cachegen_bins(paper, KvKind::Key, 10, 32) == 16);
  CHECK(cachegen_bins(paper, KvKind::Value, 1, 32) == 32);
  CHECK(cachegen_bins(paper, KvKind::Value, 2, 32) == 16);
  CHECK(cachegen_early_layers(paper.keys, 80) == 25);
  CHECK(cachegen_early_layers(paper.values, 80) == 5);
  CHECK(cachegen_early_layers(paper.values, 4) == 1);
  for (const auto& level : cachegen_default_levels()) {
    for (const KvKind kind : {KvKind::Key, KvKind::Value}) {
      for (int l = 1; l < 61; ++l) {
        CHECK(cachegen_bins(level, kind, l, 61) <= cachegen_bins(level, kind, l - 1, 61));
      }
      CHECK(cachegen_bins(level, kind, 60, 61) < cachegen_bins(level, kind, 0, 61));
    }
  }
  CHECK_THROWS_AS(cachegen_bins(paper, KvKind::Key, 32, 32), std::invalid_argument);
}

TEST_CASE("cachegen byte count is header, tables, 16-bit scales and streams") {
  const SyntheticLayer layer = make_synthetic_layer(150, 2, 64, 8);
  const EncodedChunk chunk = cachegen_encode(view_of(layer), 3, 32, 0);
  CHECK(chunk.scale_bytes() == 2 * 2 * 150);
  CHECK(chunk.bytes() == kCacheGenHeaderBytes + chunk.table_bytes() + chunk.scale_bytes() +
                             chunk.stream_bytes());
  CHECK(chunk.table_bytes() >= 2 * 128 * 4);
  CHECK(chunk.table_bytes() <= 2 * 128 * (2 + 2 * 63));
}

TEST_CASE("cachegen codes deeper layers and lower quality levels to fewer bytes, less precisely") {
  const SyntheticLayer layer = make_synthetic_layer(400, 2, 64, 9);
  std::uint64_t previous = std::numeric_limits<std::uint64_t>::max();
  double previous_error = 0.0;
  for (int level = 0; level < static_cast<int>(cachegen_default_levels().size()); ++level) {
    const EncodedChunk chunk = cachegen_encode(view_of(layer), 0, 32, level);
    const DecodedChunk decoded = cachegen_decode(chunk);
    double error = 0.0;
    for (std::size_t i = 0; i < layer.values.size(); ++i) {
      error += std::fabs(layer.values[i] - decoded.values[i]);
    }
    CHECK(chunk.bytes() < previous);
    CHECK(error > 1.5 * previous_error);
    previous = chunk.bytes();
    previous_error = error;
  }
  CHECK(cachegen_encode(view_of(layer), 31, 32, 1).bytes() <
        cachegen_encode(view_of(layer), 0, 32, 1).bytes());
}

TEST_CASE("cachegen handles empty chunks, zero tokens and repeated tokens") {
  SUBCASE("an empty chunk codes to its header and decodes to nothing") {
    const EncodedChunk chunk = cachegen_encode(KvChunkView{{}, {}, 0, 256}, 0, 32, 1);
    CHECK(chunk.bytes() == kCacheGenHeaderBytes);
    CHECK(cachegen_decode(chunk).keys.empty());
  }
  SUBCASE("all-zero KV decodes to zeros and codes to almost nothing beyond tables and scales") {
    const std::vector<float> zeros(100 * 64, 0.0F);
    const EncodedChunk chunk = cachegen_encode(KvChunkView{zeros, zeros, 100, 64}, 0, 32, 1);
    CHECK(cachegen_decode(chunk).keys == zeros);
    CHECK(chunk.stream_bytes() <= 8);
  }
  SUBCASE("tokens repeated within each delta group code far smaller with delta coding") {
    std::vector<float> rows(500 * 64);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      rows[i] = std::sin(static_cast<float>(i % 64) + 0.37F * static_cast<float>(i / 640));
    }
    CacheGenOptions options;
    options.delta = true;
    const KvChunkView kv{rows, rows, 500, 64};
    const EncodedChunk plain = cachegen_encode(kv, 0, 32, 1);
    const EncodedChunk delta = cachegen_encode(kv, 0, 32, 1, options);
    CHECK(delta.stream_bytes() * 3 < plain.stream_bytes());
    CHECK(cachegen_decode(delta).keys == cachegen_decode(plain).keys);
  }
}

TEST_CASE("cachegen rejects bad shapes, levels and values") {
  std::vector<float> x(10 * 8, 1.0F);
  const KvChunkView good{x, x, 10, 8};
  CHECK_THROWS_AS(cachegen_encode(KvChunkView{x, x, 10, 9}, 0, 32, 1), std::invalid_argument);
  CHECK_THROWS_AS(cachegen_encode(good, 0, 32, 4), std::invalid_argument);
  CHECK_THROWS_AS(cachegen_encode(good, -1, 32, 1), std::invalid_argument);
  x[3] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(cachegen_encode(good, 0, 32, 1), std::invalid_argument);
  x[3] = 1.0e6F;
  CHECK_THROWS_AS(cachegen_encode(good, 0, 32, 1), std::invalid_argument);
  x[3] = 1.0F;
  EncodedChunk chunk = cachegen_encode(good, 0, 32, 1);
  chunk.keys.tables.pop_back();
  CHECK_THROWS_AS(cachegen_decode(chunk), std::runtime_error);
}
