#include "sim/accuracy/methods/format_codec.hpp"

#include <stdexcept>

#include "sim/quant/format_methods.hpp"
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
  if (decodes_anchor(m, anchor_only)) return m.canonical() + "/anchor";
  return "format" + quant::format_canonical(m);
}

}  // namespace lynxsim::accuracy
