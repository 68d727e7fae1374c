#include "sim/accuracy/methods/format_codec.hpp"

#include <stdexcept>

#include "sim/quant/format_methods.hpp"
#include "sim/quant/fp4_codec.hpp"
#include "sim/quant/lynx_nvfp4.hpp"
#include "sim/quant/scaled_codec.hpp"

namespace lynxsim::accuracy {
namespace {

using quant::BlockView;
using quant::KvFormat;
using quant::KvFormatInfo;
using quant::MutableBlockView;

quant::ScaledConfig scaled_config(const quant::MethodSpec& m, const KvFormatInfo& info, BlockView block) {
  const quant::ElementCode code = *info.scaled_code;
  if (info.scales == quant::ScaleLayout::per_token_head) return {code, quant::ScaleScope::per_token, 1.0F};
  const float scale = m.tensor_scale.calibrated ? quant::amax_scale(block, code)
                                                : static_cast<float>(m.tensor_scale.value);
  return {code, quant::ScaleScope::per_tensor, scale};
}

void scaled_rows(const quant::MethodSpec& m, bool anchor, BlockView block, BlockView rows, float* out) {
  const KvFormatInfo& info = quant::kv_format_info(*m.format);
  const quant::ScaledBlock codes = quant::encode_scaled_fast(rows, scaled_config(m, info, block));
  const MutableBlockView target(std::span<float>(out, rows.size()), rows.tokens, rows.channels);
  if (anchor) {
    quant::decode_scaled_anchor(codes, m.bits - m.anchor_bits(), target);
  } else {
    quant::decode_scaled_fast(codes, target);
  }
}

bool decodes_anchor(const quant::MethodSpec& m, bool anchor_only) {
  return anchor_only && m.family == quant::MethodFamily::lynx && m.speculative();
}

bool cell_residual(const quant::MethodSpec& m) { return m.anchor_scheme == quant::AnchorScheme::cell_residual; }

// nvfp4's tensor scale comes from the amax of the whole block the rows belong to, so that any row
// range is coded as it is inside the whole block; mxfp4 and the block scales depend on the row only.
void fp4_rows(const quant::MethodSpec& m, bool anchor_only, BlockView block, BlockView rows, float* out) {
  const auto format = *m.format == KvFormat::nvfp4 ? quant::Fp4Format::nvfp4 : quant::Fp4Format::mxfp4;
  const std::optional<float> amax =
      format == quant::Fp4Format::nvfp4 ? std::optional<float>(quant::fp4_tensor_amax(block)) : std::nullopt;
  const MutableBlockView target(std::span<float>(out, rows.size()), rows.tokens, rows.channels);
  if (cell_residual(m)) {
    quant::decode_lynx_nvfp4(quant::encode_lynx_nvfp4(rows, amax), decodes_anchor(m, anchor_only) ? 1 : 2, target);
    return;
  }
  quant::decode_fp4(quant::encode_fp4(rows, format, quant::best_kernel_isa(), amax), target);
}

}  // namespace

void format_rows(const quant::MethodSpec& m, bool anchor_only, BlockView block, int begin, int end, float* out) {
  if (!m.format) throw std::logic_error("format_rows: the method has no KV format");
  const std::size_t channels = static_cast<std::size_t>(block.channels);
  const BlockView rows(block.data.subspan(static_cast<std::size_t>(begin) * channels,
                                          static_cast<std::size_t>(end - begin) * channels),
                       end - begin, block.channels);
  switch (*m.format) {
    case KvFormat::fp8_e4m3:
    case KvFormat::fp8_e5m2:
    case KvFormat::int8_pth:
    case KvFormat::fp8_pth: scaled_rows(m, decodes_anchor(m, anchor_only), block, rows, out); return;
    case KvFormat::nvfp4:
    case KvFormat::mxfp4: fp4_rows(m, anchor_only, block, rows, out); return;
  }
  throw std::logic_error("format_rows: no codec for this KV format");
}

double format_bits_per_element(const quant::MethodSpec& m, bool anchor_only, int tokens, int head_dim) {
  const KvFormatInfo& info = quant::kv_format_info(*m.format);
  const double code_bits = decodes_anchor(m, anchor_only) ? m.anchor_bits() : m.bits;
  const double elements = static_cast<double>(tokens) * head_dim;
  double scale_bits = 8.0 * info.tensor_scale_bytes / elements;
  if (info.scales == quant::ScaleLayout::per_token_head) scale_bits += 8.0 * info.scale_bytes / head_dim;
  if (info.scales == quant::ScaleLayout::per_block) scale_bits += 8.0 * info.scale_bytes / info.block_elements;
  return code_bits + scale_bits;
}

std::string format_reconstruction_id(const quant::MethodSpec& m, bool anchor_only) {
  if (cell_residual(m)) {
    return decodes_anchor(m, anchor_only) ? "format" + quant::format_canonical(quant::method_from_name("nvfp4"))
                                          : m.canonical();
  }
  if (decodes_anchor(m, anchor_only)) return m.canonical() + "/anchor";
  return "format" + quant::format_canonical(m);
}

}  // namespace lynxsim::accuracy
