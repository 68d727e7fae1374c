#pragma once
// The KV cache formats serving engines store and send as they are, described as data: element code
// width and where the scales live. A transfer method of family `scaled` (method_spec.hpp) sends one
// of them as one plane; a Lynx method over a format splits its element code into planes. The bytes
// on the wire (sim/serving/kv_bytes.cpp), the method names and the accuracy codec
// (sim/accuracy/methods/format_codec.cpp) all read this table, so a new format is one enumerator,
// one row of kv_formats() and one case of the accuracy codec.
//
// Scale layouts, per KV head and tensor (K and V apart) of one layer:
//   per_tensor      one scale of tensor_scale_bytes per layer and tensor (vLLM's `_k_scale`,
//                   `_v_scale`, float32), sent with plane 0 of every layer
//   per_token_head  one scale of scale_bytes per token and KV head (vLLM pull request 38378, float32)
//   per_block       one scale of scale_bytes per block_elements consecutive channels of a token,
//                   plus tensor_scale_bytes per layer and tensor (0 when the format has no second
//                   level); block_elements must divide the head dimension (nvfp4: 16 channels, an
//                   E4M3 byte each, a float32 tensor scale; mxfp4: 32 channels, an E8M0 byte each;
//                   their codec is fp4_codec.hpp)
// Wire bytes of one tensor of one layer for h heads, t tokens, d channels and code width b:
//   codes  h·ceil(t·d·b / 8)          scales  as above.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "sim/quant/fp8_math.hpp"

namespace lynxsim::quant {

enum class KvFormat : std::uint8_t { fp8_e4m3, fp8_e5m2, int8_pth, fp8_pth, nvfp4, mxfp4 };
enum class ScaleLayout : std::uint8_t { per_tensor, per_token_head, per_block };

struct KvFormatInfo {
  KvFormat format;
  std::string_view name;  // the method name
  int code_bits;
  ScaleLayout scales;
  int block_elements;      // per_block only
  int scale_bytes;         // one per-token-head or per-block scale
  int tensor_scale_bytes;  // per layer and tensor
  int mantissa_bits;       // of a floating-point element code (0 for integers): the bits a Lynx anchor may drop
  std::optional<ElementCode> scaled_code;  // the scaled_codec.hpp element code, when that codec implements it
  std::string_view lynx_name;  // "e4m3": Lynx splits of the code are named lynx-e4m3-A+B; empty: none
  std::string_view description;
};

std::span<const KvFormatInfo> kv_formats();
const KvFormatInfo& kv_format_info(KvFormat format);
std::optional<KvFormat> kv_format_named(std::string_view name);

}  // namespace lynxsim::quant
