#pragma once
// FP4 KV formats: NVIDIA's NVFP4 and the OCP microscaling MXFP4, on one KV block [tokens][channels]
// (tensor_view.hpp), blocks of elements running along the head dimension (channels).
//
// nvfp4 (NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision Inference", 2025;
// TensorRT Model Optimizer, modelopt/torch/quantization/qtensor/nvfp4_tensor.py):
//   tensor scale  s2 = amax(|x|) / (6·448)  (float32; floored at 2^−100, fp4_math.hpp)
//   block of 16   code_b = E4M3(amax_b / (6·s2)),  d_b = E4M3value(code_b)·s2
//   element       q = E2M1(x·(1/d_b)),  x̂ = E2M1value(q)·d_b
// The element is multiplied by the block's reciprocal scale, as TensorRT-LLM's FP4 quantization
// kernel does (cvt_warp_fp16_to_fp4), rather than divided. The tensor amax is the block's own, or
// one given by the caller (a layer's, or a calibrated one; larger values then saturate at ±6·d_b).
//
// mxfp4 (OCP Microscaling Formats (MX) Specification v1.0, 2023, section 6.3):
//   block of 32   X = 2^(floor(log2 amax_b) − 2) as E8M0 (fp4_math.hpp), clamped at 2^−127
//   element       q = E2M1(x/X),  x̂ = E2M1value(q)·X      (x/X is exact: X is a power of two)
// x/X lies in [0, 8) in magnitude; values in (6, 8) saturate to ±6.
//
// Rounding: E2M1 and E4M3 round to nearest, ties to even; E2M1 saturates at ±6, E4M3 at 448.
// Zeros: an all-zero block gets scale code 0 (nvfp4: E4M3 0, so d_b = 0; mxfp4: 2^−127) and codes
// of signed zero; nvfp4 blocks whose amax is below 2^−10·6·s2 (1/458752 of the tensor amax) round
// their E4M3 scale to 0 and decode to signed zeros too. Negative zero: −0.0, and any negative
// value that rounds to zero, gives code 8 and decodes to −0.0. Subnormals: E4M3 block scales below
// 2^−6 are E4M3 subnormals (steps of 2^−9); float32 subnormal inputs are ordinary small values.
// NaN and infinity: not accepted (std::invalid_argument naming the first, like every lynxsim codec);
// the encoder never writes E8M0 0xFF or E4M3 0x7F, and a decoder meeting them yields NaN for the
// block, as the specifications define.
//
// Wire format of one encoded block, n = tokens·channels elements:
//   nvfp4: 4 bytes float32 s2, n/16 E4M3 scale bytes, n/2 code bytes  -> 4.5 bits + 32 bits per tensor
//   mxfp4:                     n/32 E8M0 scale bytes, n/2 code bytes  -> 4.25 bits
// Scales in block order (row-major); codes two per byte, the even element in the low nibble
// (the packing of ModelOpt and CUTLASS). channels must be a multiple of the block size
// (fp4_layout_problem).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/quant/kernel_isa.hpp"
#include "sim/quant/tensor_view.hpp"

namespace lynxsim::quant {

enum class Fp4Format { nvfp4, mxfp4 };

std::string to_string(Fp4Format format);
std::optional<Fp4Format> parse_fp4_format(std::string_view name);

// 16 for nvfp4, 32 for mxfp4.
int fp4_block_size(Fp4Format format);

// The problem text when a head dimension of `channels` cannot be coded in `format` (not a positive
// multiple of its block size); std::nullopt when it can.
std::optional<std::string> fp4_layout_problem(Fp4Format format, int channels);

struct Fp4WireBytes {
  std::size_t tensor_scale = 0;  // nvfp4: 4
  std::size_t block_scales = 0;
  std::size_t codes = 0;
  std::size_t total() const { return tensor_scale + block_scales + codes; }
};
Fp4WireBytes fp4_wire_bytes(Fp4Format format, int tokens, int channels);

struct Fp4Encoded {
  Fp4Format format = Fp4Format::nvfp4;
  int tokens = 0;
  int channels = 0;
  float tensor_scale = 1.0F;  // nvfp4's s2; 1 for mxfp4
  std::vector<std::uint8_t> scales;
  std::vector<std::uint8_t> codes;
};

// The largest |x| of the block (nvfp4's tensor amax); throws std::invalid_argument naming the first
// non-finite value.
float fp4_tensor_amax(BlockView input, KernelIsa isa = best_kernel_isa());

// Sizes `out` for the shape (no reallocation when it already has it). Throws std::invalid_argument
// for a layout problem.
void prepare_fp4_encoded(Fp4Format format, int tokens, int channels, Fp4Encoded& out);

// The scalar oracle, written from the specifications above. tensor_amax (nvfp4 only) replaces the
// block's own amax in s2; it must be finite and >= 0.
Fp4Encoded encode_fp4_reference(BlockView input, Fp4Format format, std::optional<float> tensor_amax = std::nullopt);
void decode_fp4_reference(const Fp4Encoded& encoded, MutableBlockView output);

// The optimized kernels (AVX2 where `isa` names it, else the oracle's loops); same bits as the oracle.
void encode_fp4_into(BlockView input, Fp4Format format, Fp4Encoded& out, KernelIsa isa = best_kernel_isa(),
                     std::optional<float> tensor_amax = std::nullopt);
Fp4Encoded encode_fp4(BlockView input, Fp4Format format, KernelIsa isa = best_kernel_isa(),
                      std::optional<float> tensor_amax = std::nullopt);
void decode_fp4(const Fp4Encoded& encoded, MutableBlockView output, KernelIsa isa = best_kernel_isa());

// Throws std::invalid_argument for a given tensor amax that is not finite or is negative.
void check_fp4_tensor_amax(std::optional<float> tensor_amax);

// Checks an encoded block against its shape (vector sizes) and an output view; throws
// std::invalid_argument.
void check_fp4_decodable(const Fp4Encoded& encoded, MutableBlockView output);

}  // namespace lynxsim::quant
