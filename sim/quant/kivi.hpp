#pragma once
// KIVI (Liu et al., 2024): tuning-free asymmetric 2/4-bit KV cache quantization.
//
// Keys are quantized per channel (groups of G tokens of one channel, because key outliers sit in
// fixed channels), values per token (groups of G channels of one token). The most recent tokens are
// kept in 16 bits (bf16 here, rounded to nearest even) because attention concentrates on them:
//   recent  = min(T, R) + ((T − min(T, R)) mod G),   quantized = T − recent,
// so the quantized part of the keys is a whole number of G-token groups, and keys and values share
// the same boundary. Defaults: R = 128, G = 32 (the released code). The quantized part uses
// quant_config.hpp (asymmetric, fp16 scale and minimum). Bytes: packed codes + 4 bytes per group +
// 2 bytes per recent element, for keys and values separately.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/quant/quantized_block.hpp"
#include "sim/quant/tensor_view.hpp"

namespace lynxsim::quant {

struct KiviConfig {
  int bits = 2;
  int group_size = 32;
  int residual_tokens = 128;

  void validate() const;
  QuantConfig key_config() const;    // per-channel groups
  QuantConfig value_config() const;  // per-token groups
  int quantized_tokens(int tokens) const;
};

struct KiviTensor {
  QuantizedBlock quantized;           // the first quantized_tokens tokens
  std::vector<std::uint16_t> recent;  // bf16 bits of the remaining [recent][channels]
};

struct KiviBlock {
  KiviConfig config;
  int tokens = 0;
  int channels = 0;
  KiviTensor keys;
  KiviTensor values;
};

struct KiviBytes {
  std::size_t keys = 0;
  std::size_t values = 0;
  std::size_t total() const { return keys + values; }
};

KiviBlock quantize_kivi(BlockView keys, BlockView values, const KiviConfig& config);
void dequantize_kivi(const KiviBlock& block, MutableBlockView keys, MutableBlockView values);
KiviBytes kivi_bytes(const KiviConfig& config, int tokens, int channels);

}  // namespace lynxsim::quant
