#include "sim/quant/kv_format.hpp"

#include <array>
#include <stdexcept>

namespace lynxsim::quant {
namespace {

constexpr std::array kFormats{
    KvFormatInfo{KvFormat::fp8_e4m3, "fp8-e4m3", 8, ScaleLayout::per_tensor, 0, 0, 4, 3, ElementCode::fp8_e4m3, "e4m3",
                 "FP8 E4M3 (OCP), one float32 scale per layer for K and for V (vLLM --kv-cache-dtype fp8)"},
    KvFormatInfo{KvFormat::fp8_e5m2, "fp8-e5m2", 8, ScaleLayout::per_tensor, 0, 0, 4, 2, ElementCode::fp8_e5m2, "e5m2",
                 "FP8 E5M2 (OCP), one float32 scale per layer for K and for V (vLLM fp8_e5m2)"},
    KvFormatInfo{KvFormat::int8_pth, "int8-pth", 8, ScaleLayout::per_token_head, 0, 4, 0, 0, ElementCode::int8, "",
                 "INT8 symmetric, one float32 scale per token and KV head (vLLM int8_per_token_head)"},
    KvFormatInfo{KvFormat::fp8_pth, "fp8-pth", 8, ScaleLayout::per_token_head, 0, 4, 0, 3, ElementCode::fp8_e4m3, "",
                 "FP8 E4M3, one float32 scale per token and KV head (vLLM fp8_per_token_head)"},
    KvFormatInfo{KvFormat::nvfp4, "nvfp4", 4, ScaleLayout::per_block, 16, 1, 4, 1, std::nullopt, "",
                 "NVFP4: E2M1 in blocks of 16 channels, an E4M3 scale per block, a float32 scale amax/(6*448) per "
                 "layer and tensor (TensorRT-LLM NVFP4 KV)"},
    KvFormatInfo{KvFormat::mxfp4, "mxfp4", 4, ScaleLayout::per_block, 32, 1, 0, 1, std::nullopt, "",
                 "MXFP4 (OCP MX v1.0): E2M1 in blocks of 32 channels, an E8M0 shared scale per block"},
};

}  // namespace

std::span<const KvFormatInfo> kv_formats() { return kFormats; }

const KvFormatInfo& kv_format_info(KvFormat format) {
  for (const KvFormatInfo& info : kFormats) {
    if (info.format == format) return info;
  }
  throw std::logic_error("KV format without a table row");
}

std::optional<KvFormat> kv_format_named(std::string_view name) {
  for (const KvFormatInfo& info : kFormats) {
    if (info.name == name) return info.format;
  }
  return std::nullopt;
}

}  // namespace lynxsim::quant
