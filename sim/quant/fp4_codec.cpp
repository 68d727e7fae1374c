#include "sim/quant/fp4_codec.hpp"

#include <cmath>
#include <stdexcept>

#include "sim/quant/fp4_kernels.hpp"
#include "sim/quant/fp4_math.hpp"
#include "sim/quant/input_check.hpp"

namespace lynxsim::quant {

std::string to_string(Fp4Format format) { return format == Fp4Format::nvfp4 ? "nvfp4" : "mxfp4"; }

std::optional<Fp4Format> parse_fp4_format(std::string_view name) {
  if (name == "nvfp4") {
    return Fp4Format::nvfp4;
  }
  if (name == "mxfp4") {
    return Fp4Format::mxfp4;
  }
  return std::nullopt;
}

int fp4_block_size(Fp4Format format) { return format == Fp4Format::nvfp4 ? 16 : 32; }

std::optional<std::string> fp4_layout_problem(Fp4Format format, int channels) {
  const int block = fp4_block_size(format);
  if (channels > 0 && channels % block == 0) {
    return std::nullopt;
  }
  return "head dimension " + std::to_string(channels) + " is not a multiple of " + to_string(format) +
         "'s block of " + std::to_string(block) + " elements";
}

Fp4WireBytes fp4_wire_bytes(Fp4Format format, int tokens, int channels) {
  const std::size_t n = static_cast<std::size_t>(tokens) * static_cast<std::size_t>(channels);
  Fp4WireBytes bytes;
  bytes.tensor_scale = format == Fp4Format::nvfp4 ? sizeof(float) : 0;
  bytes.block_scales = n / static_cast<std::size_t>(fp4_block_size(format));
  bytes.codes = n / 2;
  return bytes;
}

void prepare_fp4_encoded(Fp4Format format, int tokens, int channels, Fp4Encoded& out) {
  if (const auto problem = fp4_layout_problem(format, channels)) {
    throw std::invalid_argument(*problem);
  }
  if (tokens < 0) {
    throw std::invalid_argument(to_string(format) + ": negative token count");
  }
  const Fp4WireBytes bytes = fp4_wire_bytes(format, tokens, channels);
  out.format = format;
  out.tokens = tokens;
  out.channels = channels;
  out.tensor_scale = 1.0F;
  out.scales.resize(bytes.block_scales);
  out.codes.resize(bytes.codes);
}

namespace {

struct IsaLoops {
  std::uint32_t (*abs_max_bits)(const float*, std::size_t);
  std::uint32_t (*encode)(const fp4_detail::BlockSpan&, const float*, std::uint8_t*, std::uint8_t*);
  void (*decode)(const fp4_detail::BlockSpan&, const std::uint8_t*, const std::uint8_t*, float*);
};

IsaLoops loops_for(KernelIsa isa) {
  if (isa == KernelIsa::avx2 && kernel_isa_supported(isa)) {
#if defined(LYNXSIM_QUANT_AVX2_KERNELS)
    return {fp4_detail::abs_max_bits_avx2, fp4_detail::encode_blocks_avx2, fp4_detail::decode_blocks_avx2};
#endif
  }
  if (isa != KernelIsa::portable) {
    throw std::invalid_argument("kernel ISA " + to_string(isa) + " is not supported by this CPU or build");
  }
  return {fp4_detail::abs_max_bits_portable, fp4_detail::encode_blocks_portable, fp4_detail::decode_blocks_portable};
}

float amax_of(BlockView input, const IsaLoops& loops) {
  const std::uint32_t amax = loops.abs_max_bits(input.data.data(), input.size());
  if (amax >= fp4_detail::kNonFiniteBits) {
    reject_non_finite(input, 0, input.tokens);
  }
  return fp4_math::cm::bits_float(amax);
}

float tensor_scale_of(BlockView input, const IsaLoops& loops, std::optional<float> tensor_amax) {
  return fp4_math::nvfp4_tensor_scale(tensor_amax ? *tensor_amax : amax_of(input, loops));
}

void encode_with(const IsaLoops& loops, BlockView input, Fp4Format format, Fp4Encoded& out,
                 std::optional<float> tensor_amax, std::uint8_t* residual = nullptr) {
  check_fp4_tensor_amax(tensor_amax);
  prepare_fp4_encoded(format, input.tokens, input.channels, out);
  if (format == Fp4Format::nvfp4) {
    out.tensor_scale = tensor_scale_of(input, loops, tensor_amax);
  }
  const fp4_detail::BlockSpan span{format, out.scales.size(), out.tensor_scale, residual};
  if (loops.encode(span, input.data.data(), out.scales.data(), out.codes.data()) >= fp4_detail::kNonFiniteBits) {
    reject_non_finite(input, 0, input.tokens);
  }
}

void decode_with(const IsaLoops& loops, const Fp4Encoded& encoded, MutableBlockView output) {
  check_fp4_decodable(encoded, output);
  const fp4_detail::BlockSpan span{encoded.format, encoded.scales.size(), encoded.tensor_scale};
  loops.decode(span, encoded.scales.data(), encoded.codes.data(), output.data.data());
}

}  // namespace

float fp4_tensor_amax(BlockView input, KernelIsa isa) { return amax_of(input, loops_for(isa)); }

void check_fp4_tensor_amax(std::optional<float> tensor_amax) {
  if (tensor_amax && (!std::isfinite(*tensor_amax) || *tensor_amax < 0.0F)) {
    throw std::invalid_argument("nvfp4: the tensor amax must be finite and >= 0");
  }
}

void check_fp4_decodable(const Fp4Encoded& encoded, MutableBlockView output) {
  if (const auto problem = fp4_layout_problem(encoded.format, encoded.channels)) {
    throw std::invalid_argument(*problem);
  }
  const Fp4WireBytes bytes = fp4_wire_bytes(encoded.format, encoded.tokens, encoded.channels);
  if (encoded.scales.size() != bytes.block_scales || encoded.codes.size() != bytes.codes) {
    throw std::invalid_argument(to_string(encoded.format) + " decode: scale or code bytes do not match the shape");
  }
  if (output.tokens != encoded.tokens || output.channels != encoded.channels) {
    throw std::invalid_argument(to_string(encoded.format) + " decode: output view shape differs from the encoded block");
  }
}

Fp4Encoded encode_fp4_reference(BlockView input, Fp4Format format, std::optional<float> tensor_amax) {
  Fp4Encoded out;
  encode_with(loops_for(KernelIsa::portable), input, format, out, tensor_amax);
  return out;
}

void decode_fp4_reference(const Fp4Encoded& encoded, MutableBlockView output) {
  decode_with(loops_for(KernelIsa::portable), encoded, output);
}

void encode_fp4_into(BlockView input, Fp4Format format, Fp4Encoded& out, KernelIsa isa,
                     std::optional<float> tensor_amax) {
  encode_with(loops_for(isa), input, format, out, tensor_amax);
}

Fp4Encoded encode_fp4(BlockView input, Fp4Format format, KernelIsa isa, std::optional<float> tensor_amax) {
  Fp4Encoded out;
  encode_fp4_into(input, format, out, isa, tensor_amax);
  return out;
}

void fp4_detail::encode_nvfp4_with_residual(BlockView input, Fp4Encoded& anchor, std::uint8_t* residual, KernelIsa isa,
                                            std::optional<float> tensor_amax) {
  encode_with(loops_for(isa), input, Fp4Format::nvfp4, anchor, tensor_amax, residual);
}

void decode_fp4(const Fp4Encoded& encoded, MutableBlockView output, KernelIsa isa) {
  decode_with(loops_for(isa), encoded, output);
}

}  // namespace lynxsim::quant
