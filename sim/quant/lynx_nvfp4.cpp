#include "sim/quant/lynx_nvfp4.hpp"

#include <stdexcept>
#include <string>

#include "sim/quant/fp4_kernels.hpp"
#include "sim/quant/fp4_math.hpp"
#include "sim/quant/lynx_nvfp4_kernels.hpp"

namespace lynxsim::quant {
namespace lynx_nvfp4_detail {
namespace {

namespace fm = fp4_math;

std::uint8_t nibble(const std::uint8_t* bytes, std::size_t i) {
  return static_cast<std::uint8_t>((bytes[i / 2] >> (4 * (i % 2))) & 15U);
}

std::uint8_t residual_level(float x, float multiplier, std::uint8_t anchor_code) {
  const std::uint32_t k = anchor_code & 7U;
  const float a = fm::cm::bits_float(fm::cm::float_bits(x * multiplier) & 0x7fffffffU);
  const float steps = (a - kCellLow[k]) * kCellStepsPerUnit[k];
  if (!(steps > 0.0F)) {
    return 0;
  }
  return steps >= 15.0F ? 15 : static_cast<std::uint8_t>(steps);
}

float refined_value(std::uint8_t anchor_code, std::uint8_t level) {
  const std::uint32_t k = anchor_code & 7U;
  const float magnitude = kCellLow[k] + (static_cast<float>(level) + 0.5F) * kCellStep[k];
  return (anchor_code & 8U) != 0 ? -magnitude : magnitude;
}

}  // namespace

void residual_portable(const ResidualSpan& span, const float* x, std::uint8_t* residual) {
  for (std::size_t b = 0; b < span.blocks; ++b) {
    const float multiplier = fm::nvfp4_block_of_code(span.scales[b], span.tensor_scale).encode_multiplier;
    for (std::size_t i = 16 * b; i < 16 * b + 16; i += 2) {
      const std::uint8_t even = residual_level(x[i], multiplier, nibble(span.anchor, i));
      const std::uint8_t odd = residual_level(x[i + 1], multiplier, nibble(span.anchor, i + 1));
      residual[i / 2] = static_cast<std::uint8_t>(even | (odd << 4));
    }
  }
}

void refine_portable(const ResidualSpan& span, const std::uint8_t* residual, float* out) {
  for (std::size_t b = 0; b < span.blocks; ++b) {
    const float scale = fm::nvfp4_block_of_code(span.scales[b], span.tensor_scale).decode_scale;
    for (std::size_t i = 16 * b; i < 16 * b + 16; ++i) {
      out[i] = refined_value(nibble(span.anchor, i), nibble(residual, i)) * scale;
    }
  }
}

}  // namespace lynx_nvfp4_detail

namespace {

using lynx_nvfp4_detail::ResidualSpan;

using RefineLoop = void (*)(const ResidualSpan&, const std::uint8_t*, float*);

RefineLoop refine_loop(KernelIsa isa) {
  if (isa == KernelIsa::avx2 && kernel_isa_supported(isa)) {
#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
    return lynx_nvfp4_detail::refine_avx2;
#endif
  }
  if (isa != KernelIsa::portable) {
    throw std::invalid_argument("kernel ISA " + to_string(isa) + " is not supported by this CPU or build");
  }
  return lynx_nvfp4_detail::refine_portable;
}

ResidualSpan span_of(const Fp4Encoded& anchor) {
  return {anchor.scales.size(), anchor.scales.data(), anchor.tensor_scale, anchor.codes.data()};
}

void check_planes(const LynxNvfp4Encoded& encoded, int planes_received) {
  if (planes_received < 1 || planes_received > 2) {
    throw std::invalid_argument("lynx-nvfp4 decode: " + std::to_string(planes_received) + " planes requested (1 or 2)");
  }
  if (planes_received == 2 && encoded.residual.size() != encoded.anchor.codes.size()) {
    throw std::invalid_argument("lynx-nvfp4 decode: the residual plane does not match the anchor's shape");
  }
}

}  // namespace

std::array<std::size_t, 2> lynx_nvfp4_plane_bytes(int tokens, int channels) {
  const Fp4WireBytes anchor = fp4_wire_bytes(Fp4Format::nvfp4, tokens, channels);
  return {anchor.total(), anchor.codes};
}

LynxNvfp4Encoded encode_lynx_nvfp4(BlockView input, std::optional<float> tensor_amax, KernelIsa isa) {
  LynxNvfp4Encoded out;
  out.residual.resize(input.size() / 2);
  fp4_detail::encode_nvfp4_with_residual(input, out.anchor, out.residual.data(), isa, tensor_amax);
  return out;
}

void decode_lynx_nvfp4(const LynxNvfp4Encoded& encoded, int planes_received, MutableBlockView output, KernelIsa isa) {
  check_planes(encoded, planes_received);
  if (planes_received == 1) {
    decode_fp4(encoded.anchor, output, isa);
    return;
  }
  const RefineLoop refine = refine_loop(isa);
  check_fp4_decodable(encoded.anchor, output);
  refine(span_of(encoded.anchor), encoded.residual.data(), output.data.data());
}

}  // namespace lynxsim::quant
