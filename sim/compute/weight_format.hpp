#pragma once
// How a model card's projection weights are stored, and the precision their GEMMs run in.
//
// Bytes per weight: the values plus the scales their blocks carry (a block of g weights with an
// s-byte scale adds s / g bytes per weight):
//   bf16          2                       no scales
//   fp8           1                       E4M3 with per-tensor or per-output-channel scales (vLLM's
//                                         and ModelOpt's FP8 checkpoints); one FP32 scale per row of
//                                         >= 2048 inputs is < 0.2% of the bytes and not counted
//   fp8-block128  1 + 4 / (128 * 128)     E4M3 with one FP32 scale per 128 x 128 block (DeepSeek-V3
//                                         config.json quantization_config weight_block_size)
//   mxfp4         0.5 + 1 / 32            E2M1 with one E8M0 scale per 32 weights (OCP Microscaling
//                                         Formats v1.0, section 5.3): 4.25 bits, gpt-oss's experts
//   nvfp4         0.5 + 1 / 16            E2M1 with one E4M3 scale per 16 weights and one FP32 scale
//                                         per tensor (NVIDIA TensorRT Model Optimizer NVFP4): 4.5
//                                         bits; the per-tensor scale is not counted
//   int4-g128     0.5 + 2.5 / 128         AWQ and GPTQ checkpoints: 4-bit integers with one FP16
//                                         scale and one 4-bit zero point (qzeros, eight per int32)
//                                         per group of 128 inputs: 4.156 bits
//
// GEMM precision of a part stored in format f, with the card's gemm_precision d (docs/models.md):
//   bf16 weights                          BF16
//   d = bf16                              BF16: weight-only, the kernel streams f's bytes and
//                                         dequantizes to BF16 before the MMA (W8A16, W4A16)
//   d = auto   FP8 weights                FP8 (W8A8) where the GPU has peak_fp8, else BF16 (vLLM's
//                                         FP8 Marlin kernel on GPUs without FP8 tensor cores)
//              FP4 weights (mxfp4, nvfp4) FP4 (W4A4) where the GPU has peak_fp4, else BF16 (vLLM's
//                                         FP4 Marlin kernel: "weight-only FP4 compression")
//              int4-g128                  BF16 (W4A16: Marlin, IST-DASLab/marlin; no integer-4
//                                         tensor-core path in the engines)
//   d = fp8    every quantized part       FP8: W8A8, 4-bit weights W4A8 (TensorRT-LLM's
//                                         W4A8_AWQ and W4A8_MXFP4_FP8); needs peak_fp8
//   d = fp4    FP4 weights                FP4 (W4A4); needs peak_fp4; FP8 parts as auto; refused
//                                         with int4-g128 parts (integers have no FP4 MMA)
// A GEMM at precision p runs at peak(p) * the profile's GEMM efficiency; the weight bytes it
// streams are f's whatever p is.

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "sim/compute/hardware_spec.hpp"

namespace lynxsim {

enum class WeightFormat { bf16, fp8, fp8_block128, mxfp4, nvfp4, int4_g128 };
enum class GemmPrecision { bf16, fp8, fp4 };
// A card's gemm_precision: automatic picks per part and GPU as above.
enum class GemmDemand { automatic, bf16, fp8, fp4 };

// The projection weights of every layer in three parts: attention projections; dense FFNs, shared
// experts and routers; routed experts.
struct WeightFormats {
  WeightFormat attention = WeightFormat::bf16;
  WeightFormat ffn = WeightFormat::bf16;
  WeightFormat experts = WeightFormat::bf16;
  bool uniform() const { return attention == ffn && ffn == experts; }
};

double bytes_per_weight(WeightFormat format);
// Bits of one value without its scales: 16, 8 or 4.
int value_bits(WeightFormat format);
const char* to_string(WeightFormat format);
std::optional<WeightFormat> weight_format_named(std::string_view name);
const char* to_string(GemmPrecision precision);
const char* to_string(GemmDemand demand);
std::optional<GemmDemand> gemm_demand_named(std::string_view name);

// The precision a part stored in `format` runs in on `hw` under `demand`; BF16 where a demanded
// precision is not available (precision_conflict names that case).
GemmPrecision gemm_precision(WeightFormat format, GemmDemand demand, const HardwareSpec& hw);
// peak(precision) / peak_bf16.
double gemm_rate(GemmPrecision precision, const HardwareSpec& hw);
// Why `demand` cannot run on `hw` (a GPU without the demanded tensor cores), or empty.
std::string precision_conflict(GemmDemand demand, const HardwareSpec& hw);
// One part's format and the precision its GEMMs run in on a GPU, with the scheme's name (W8A8,
// W4A16: weight bits, then activation bits of the GEMM).
struct PartPrecision {
  const char* part;
  WeightFormat format;
  GemmPrecision precision;
  std::string scheme() const;
};
std::array<PartPrecision, 3> part_precisions(const WeightFormats& formats, GemmDemand demand,
                                             const HardwareSpec& hw);
// Why `demand` cannot apply to `formats` on any GPU (fp4 with int4-g128 parts, a demand for
// quantized math with all-BF16 weights), or empty.
std::string demand_conflict(const WeightFormats& formats, GemmDemand demand);

}  // namespace lynxsim
