#include <algorithm>

#include "sim/quant/fp4_kernels.hpp"
#include "sim/quant/fp4_math.hpp"
#include "sim/quant/lynx_nvfp4_kernels.hpp"

namespace lynxsim::quant::fp4_detail {
namespace {

namespace fm = fp4_math;

std::uint32_t abs_bits(float x) { return fm::cm::float_bits(x) & 0x7fffffffU; }

struct BlockCode {
  std::uint8_t scale;
  float multiplier;
};

BlockCode block_code(const BlockSpan& span, std::uint32_t amax_bits) {
  if (span.format == Fp4Format::nvfp4) {
    const fm::Nvfp4Block block = fm::nvfp4_block(fm::cm::bits_float(amax_bits), span.tensor_scale);
    return {block.code, block.encode_multiplier};
  }
  const std::uint8_t code = fm::mxfp4_scale_code(amax_bits);
  return {code, fm::mxfp4_encode_multiplier(code)};
}

float decode_scale(const BlockSpan& span, std::uint8_t code) {
  return span.format == Fp4Format::nvfp4 ? fm::e4m3_value(code) * span.tensor_scale : fm::e8m0_value(code);
}

}  // namespace

std::uint32_t abs_max_bits_portable(const float* x, std::size_t n) {
  std::uint32_t amax = 0;
  for (std::size_t i = 0; i < n; ++i) {
    amax = std::max(amax, abs_bits(x[i]));
  }
  return amax;
}

std::uint32_t encode_blocks_portable(const BlockSpan& span, const float* x, std::uint8_t* scales, std::uint8_t* codes) {
  const auto size = static_cast<std::size_t>(fp4_block_size(span.format));
  std::uint32_t largest = 0;
  for (std::size_t b = 0; b < span.blocks; ++b) {
    const float* xb = x + b * size;
    const std::uint32_t amax = abs_max_bits_portable(xb, size);
    largest = std::max(largest, amax);
    const BlockCode code = block_code(span, std::min(amax, kNonFiniteBits));
    scales[b] = code.scale;
    std::uint8_t* out = codes + b * size / 2;
    for (std::size_t i = 0; i < size; i += 2) {
      out[i / 2] = static_cast<std::uint8_t>(fm::e2m1_code(xb[i] * code.multiplier) |
                                             (fm::e2m1_code(xb[i + 1] * code.multiplier) << 4));
    }
  }
  if (span.residual != nullptr) {
    lynx_nvfp4_detail::residual_portable({span.blocks, scales, span.tensor_scale, codes}, x, span.residual);
  }
  return largest;
}

void decode_blocks_portable(const BlockSpan& span, const std::uint8_t* scales, const std::uint8_t* codes, float* out) {
  const auto size = static_cast<std::size_t>(fp4_block_size(span.format));
  for (std::size_t b = 0; b < span.blocks; ++b) {
    const float scale = decode_scale(span, scales[b]);
    const std::uint8_t* in = codes + b * size / 2;
    float* ob = out + b * size;
    for (std::size_t i = 0; i < size; i += 2) {
      ob[i] = fm::e2m1_value(static_cast<std::uint8_t>(in[i / 2] & 15U)) * scale;
      ob[i + 1] = fm::e2m1_value(static_cast<std::uint8_t>(in[i / 2] >> 4)) * scale;
    }
  }
}

}  // namespace lynxsim::quant::fp4_detail
