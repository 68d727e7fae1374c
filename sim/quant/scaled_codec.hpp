#pragma once
// Scaled element codes of one KV block ([tokens][channels], one layer and KV head), the formats
// serving engines store their KV cache in:
//   per tensor       vLLM's `--kv-cache-dtype fp8` / `fp8_e5m2`: one float32 scale per layer for
//                    the keys and one for the values (vllm/attention/layer.py `_k_scale`,
//                    `_v_scale`); code = fp8(x / s), x̂ = fp8⁻¹(code)·s. The scale is either given
//                    (1.0 is vLLM's default without calibrated scales) or calibrated from the
//                    tensor's absolute maximum, s = max(amax / code_max, 1e-6), which maps the
//                    largest magnitude onto the format's largest finite value. (vLLM's own
//                    `calculate_kv_scales` divides amax by K_SCALE_CONSTANT = 200 and
//                    V_SCALE_CONSTANT = 100 instead, vllm/envs.py; a given scale expresses that.)
//   per token-head   vLLM pull request 38378 (`int8_per_token_head`, `fp8_per_token_head`): one
//                    float32 scale per token and KV head, symmetric (no zero point),
//                    s = max(amax_row / code_max, 1e-6) with code_max 127 (INT8) or 448 (E4M3),
//                    computed when the token is written. Per block row here, since a block is one
//                    KV head.
// Element arithmetic: fp8_math.hpp (rounding, saturation, NaN, subnormals, negative zero). Codes are
// one byte per element in block order; scales are float32 (one, or one per token).
// Input policy: like every codec of sim/quant, a non-finite input is rejected (std::invalid_argument
// naming the element), since it would poison an absolute maximum; the element conversion itself
// maps NaN to NaN and saturates infinities, and the tests pin that down.
// Kernels: the reference loops here (scalar, one thread); the optimized rows (scaled_codec_fast.cpp,
// AVX2 where the CPU has it) and the CUDA kernels (scaled_cuda.hpp) give the same bytes and floats.

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/quant/fp8_math.hpp"
#include "sim/quant/kernel_isa.hpp"
#include "sim/quant/tensor_view.hpp"

namespace lynxsim::quant {

enum class ScaleScope : std::uint8_t { per_tensor, per_token };

struct ScaledConfig {
  ElementCode code = ElementCode::fp8_e4m3;
  ScaleScope scope = ScaleScope::per_tensor;
  float tensor_scale = 1.0F;  // per_tensor only: > 0 and finite
};

struct ScaledBlock {
  ScaledConfig config;
  int tokens = 0;
  int channels = 0;
  std::vector<std::uint8_t> codes;  // tokens·channels
  std::vector<float> scales;        // 1 (per tensor) or tokens (per token)
};

// s = max(amax / code_max, 1e-6) over every element of the view (the calibrated per-tensor scale).
float amax_scale(BlockView block, ElementCode code);

// Throws std::invalid_argument for a per-tensor scale that is not a positive finite number.
void check_scaled_config(const ScaledConfig& config);

ScaledBlock encode_scaled_reference(BlockView input, const ScaledConfig& config);
void decode_scaled_reference(const ScaledBlock& block, MutableBlockView output);

ScaledBlock encode_scaled_fast(BlockView input, const ScaledConfig& config, KernelIsa isa = best_kernel_isa());
// Into caller-owned storage (the benchmark reuses it): resizes codes and scales as needed.
void encode_scaled_fast_into(BlockView input, const ScaledConfig& config, ScaledBlock& out,
                             KernelIsa isa = best_kernel_isa());
void decode_scaled_fast(const ScaledBlock& block, MutableBlockView output, KernelIsa isa = best_kernel_isa());

// Lynx over an FP8 code: the value of the code whose low `dropped_bits` bits are replaced by the
// middle of the interval they span (a one followed by zeros), times the scale. Within one binade
// the format's values are evenly spaced, so for dropped_bits <= mantissa bits this is the middle of
// the interval of values sharing the kept bits.
void decode_scaled_anchor(const ScaledBlock& block, int dropped_bits, MutableBlockView output);

// The row kernels of the fast path in the instruction set `isa` (scaled_codec_avx2.cpp; the portable
// loops when the build has no AVX2 variant). n elements; scale > 0.
namespace scaled_rows {
float amax(const float* x, int n, KernelIsa isa);
void encode(const float* x, int n, float scale, ElementCode code, std::uint8_t* out, KernelIsa isa);
void decode(const std::uint8_t* codes, int n, float scale, ElementCode code, float* out, KernelIsa isa);
}  // namespace scaled_rows

}  // namespace lynxsim::quant
