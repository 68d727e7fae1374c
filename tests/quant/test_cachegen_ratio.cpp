#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/quant/cachegen_codec.hpp"
#include "test_cachegen_synthetic.hpp"

using namespace lynxsim::quant;

namespace {

// The "standard 8-bit" baseline: per-token asymmetric 8-bit codes, fp16 scale and zero point per
// group of 128 channels, for K and V.
std::uint64_t int8_layer_bytes(std::size_t tokens, std::size_t channels) {
  return 2 * (tokens * channels + tokens * (channels / 128) * 4);
}

double snr_db(const std::vector<float>& x, const std::vector<float>& y) {
  double signal = 0.0;
  double noise = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    signal += static_cast<double>(x[i]) * x[i];
    noise += (static_cast<double>(x[i]) - y[i]) * (static_cast<double>(x[i]) - y[i]);
  }
  return 10.0 * std::log10(signal / noise);
}

struct ModelResult {
  double ratio = 0.0;
  double min_key_snr_db = 1e9;
};

// A 32-layer, 8 KV head, head_dim 128 model (Llama-3.1-8B shape), one 1500-token chunk. Layers of
// the same bin configuration see statistically identical synthetic data, so one layer stands for
// each class: both fine (layers 0-1), fine keys only (2-9), both coarse (10-31).
ModelResult model_ratio(bool delta, int level) {
  constexpr std::size_t kTokens = 1500;
  struct LayerClass {
    int layer;
    int weight;
  };
  const LayerClass classes[] = {{0, 2}, {5, 8}, {20, 22}};
  CacheGenOptions options;
  options.delta = delta;
  ModelResult result;
  std::uint64_t cachegen_bytes = 0;
  std::uint64_t int8_bytes = 0;
  for (const auto& cls : classes) {
    const auto data = cachegen_test::make_synthetic_layer(kTokens, 8, 128, 100 + cls.layer);
    const KvChunkView kv{data.keys, data.values, kTokens, data.num_channels};
    const EncodedChunk chunk = cachegen_encode(kv, cls.layer, 32, level, options);
    const DecodedChunk decoded = cachegen_decode(chunk);
    REQUIRE(decoded.keys.size() == data.keys.size());
    result.min_key_snr_db = std::min(result.min_key_snr_db, snr_db(data.keys, decoded.keys));
    cachegen_bytes += static_cast<std::uint64_t>(cls.weight) * chunk.bytes();
    int8_bytes += static_cast<std::uint64_t>(cls.weight) * int8_layer_bytes(kTokens, data.num_channels);
  }
  result.ratio = static_cast<double>(int8_bytes) / static_cast<double>(cachegen_bytes);
  return result;
}

}  // namespace

TEST_CASE("cachegen is several times smaller than int8 on synthetic KV") {
  const ModelResult plain = model_ratio(false, 1);
  const ModelResult delta = model_ratio(true, 1);
  MESSAGE("CacheGen 32/16 vs int8 on synthetic KV: " << plain.ratio << "x (no delta), "
                                                     << delta.ratio << "x (delta, group 10)");
  MESSAGE("lowest key SNR " << plain.min_key_snr_db << " dB");
  CHECK(plain.ratio > 2.5);
  CHECK(plain.ratio < 6.0);
  CHECK(delta.ratio > 2.0);
  CHECK(delta.ratio < 6.0);
  CHECK(plain.min_key_snr_db > 5.0);
}
