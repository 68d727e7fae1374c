#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "quant_test_data.hpp"
#include "sim/quant/half_precision.hpp"
#include "sim/quant/kivi.hpp"
#include "sim/quant/quantize.hpp"

using namespace lynxsim::quant;

TEST_CASE("KIVI keeps the recent window in bf16 and quantizes whole key groups") {
  const KiviConfig config{2, 32, 128};
  CHECK(config.quantized_tokens(100) == 0);
  CHECK(config.quantized_tokens(128) == 0);
  CHECK(config.quantized_tokens(160) == 32);
  CHECK(config.quantized_tokens(1000) == 864);
  CHECK(config.quantized_tokens(1000) % 32 == 0);
}

TEST_CASE("KIVI round trip: exact bf16 tail, per-channel keys and per-token values") {
  const int tokens = 300;
  const int channels = 64;
  const auto keys = quant_test::gaussian_channels(tokens, channels, 4, 1);
  const auto values = quant_test::wild_values(tokens, channels, 2);
  const KiviConfig config{4, 32, 128};
  const KiviBlock block = quantize_kivi(BlockView(keys, tokens, channels), BlockView(values, tokens, channels), config);
  CHECK(block.keys.quantized.tokens == 160);
  CHECK(block.keys.quantized.config.group_axis == GroupAxis::per_channel);
  CHECK(block.values.quantized.config.group_axis == GroupAxis::per_token);
  CHECK(block.keys.quantized.scales.size() == 5 * 64);
  CHECK(block.values.quantized.scales.size() == 160 * 2);
  std::vector<float> k_out(keys.size());
  std::vector<float> v_out(values.size());
  dequantize_kivi(block, MutableBlockView(k_out, tokens, channels), MutableBlockView(v_out, tokens, channels));
  const QuantizedBlock direct =
      quantize_reference(BlockView(std::span<const float>(keys).first(160 * 64), 160, channels), config.key_config());
  const auto direct_values = dequantize(direct);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i < 160 * 64) {
      REQUIRE(k_out[i] == direct_values[i]);
    } else {
      REQUIRE(k_out[i] == round_to_bf16(keys[i]));
      REQUIRE(v_out[i] == round_to_bf16(values[i]));
    }
  }
}

TEST_CASE("KIVI byte counts: packed codes, fp16 metadata and the bf16 window") {
  const KiviBytes bytes = kivi_bytes(KiviConfig{2, 32, 128}, 1000, 128);
  const std::size_t quantized = 864 * 128;
  const std::size_t recent = 136 * 128 * 2;
  CHECK(bytes.keys == quantized / 4 + 27 * 128 * 4 + recent);
  CHECK(bytes.values == quantized / 4 + 864 * 4 * 4 + recent);
  CHECK(bytes.total() == bytes.keys + bytes.values);
}
