#include "sim/accuracy/methods/method_codec.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/accuracy/methods/anchor_reconstruction.hpp"
#include "sim/accuracy/methods/format_codec.hpp"
#include "sim/quant/cachegen_levels.hpp"
#include "sim/quant/cachegen_quantizer.hpp"
#include "sim/quant/half_precision.hpp"
#include "sim/quant/kivi.hpp"
#include "sim/quant/quantize.hpp"
#include "sim/quant/quantspec.hpp"

namespace lynxsim::accuracy {
namespace {

using quant::BlockView;
using quant::GroupAxis;
using quant::MutableBlockView;
using quant::QuantConfig;

std::size_t row_offset(int row, int channels) {
  return static_cast<std::size_t>(row) * static_cast<std::size_t>(channels);
}

BlockView sub_rows(BlockView block, int begin, int end) {
  return BlockView(block.data.subspan(row_offset(begin, block.channels), row_offset(end - begin, block.channels)),
                   end - begin, block.channels);
}

void round_bf16(BlockView rows, float* out) {
  for (std::size_t i = 0; i < rows.size(); ++i) out[i] = quant::round_to_bf16(rows.data[i]);
}

void plain_quant(BlockView rows, const QuantConfig& config, float* out) {
  const quant::QuantizedBlock q = quant::quantize_fast(rows, config);
  quant::dequantize_fast(q, MutableBlockView(std::span<float>(out, rows.size()), rows.tokens, rows.channels));
}

QuantConfig per_token(int bits, int group, int channels) {
  return QuantConfig{bits, GroupAxis::per_token, group > 0 ? group : channels, false};
}

void lynx_rows(const MethodSpec& m, bool anchor, BlockView rows, float* out) {
  const quant::QuantizedBlock q = quant::quantize_fast(rows, per_token(8, m.group_size, rows.channels));
  if (!anchor) {
    quant::dequantize_fast(q, MutableBlockView(std::span<float>(out, rows.size()), rows.tokens, rows.channels));
    return;
  }
  reconstruct_top_bits(q, m.anchor_bits(), out);
}

void quantspec_rows(const MethodSpec& m, TensorKind kind, bool anchor, BlockView rows, float* out) {
  quant::QuantSpecConfig config;
  config.group_axis = kind == TensorKind::key ? GroupAxis::per_channel : GroupAxis::per_token;
  config.group_size = m.group_size > 0 ? m.group_size : quant::kQuantSpecDefaultGroup;
  const quant::QuantSpecBlock q = quant::quantize_quantspec(rows, config);
  quant::dequantize_quantspec(q, !anchor, MutableBlockView(std::span<float>(out, rows.size()), rows.tokens, rows.channels));
}

void kivi_rows(const MethodSpec& m, TensorKind kind, BlockView rows, bool in_window, float* out) {
  if (in_window) {
    round_bf16(rows, out);
    return;
  }
  const quant::KiviConfig config{m.bits, m.kivi_group, m.kivi_window};
  plain_quant(rows, kind == TensorKind::key ? config.key_config() : config.value_config(), out);
}

void cachegen_rows(const MethodSpec& m, const CodecTarget& target, BlockView rows, float* out) {
  const auto& level = quant::cachegen_default_levels().at(static_cast<std::size_t>(m.cachegen_level));
  const auto kind = target.kind == TensorKind::key ? quant::KvKind::Key : quant::KvKind::Value;
  const int bins = quant::cachegen_bins(level, kind, target.layer, target.num_layers);
  const quant::CacheGenCodes codes = quant::cachegen_quantize(rows.data, static_cast<std::size_t>(rows.tokens),
                                                              static_cast<std::size_t>(rows.channels), bins);
  const std::vector<float> x = quant::cachegen_dequantize(codes);
  std::copy(x.begin(), x.end(), out);
}

int kivi_boundary(const MethodSpec& m, int tokens) {
  return quant::KiviConfig{m.bits, m.kivi_group, m.kivi_window}.quantized_tokens(tokens);
}

}  // namespace

void reconstruct_rows(const MethodSpec& m, const CodecTarget& target, BlockView block, int begin, int end,
                      float* out) {
  if (begin < 0 || end > block.tokens || begin >= end) throw std::invalid_argument("reconstruct_rows: bad row range");
  if (m.format) {
    format_rows(m, target.anchor_only, block, begin, end, out);
    return;
  }
  const BlockView rows = sub_rows(block, begin, end);
  switch (m.family) {
    case MethodFamily::bf16: round_bf16(rows, out); return;
    case MethodFamily::int_n: plain_quant(rows, per_token(m.bits, m.group_size, block.channels), out); return;
    case MethodFamily::lynx:
      if (m.quantspec()) {
        quantspec_rows(m, target.kind, target.anchor_only, rows, out);
      } else {
        lynx_rows(m, target.anchor_only, rows, out);
      }
      return;
    case MethodFamily::cachegen: cachegen_rows(m, target, rows, out); return;
    case MethodFamily::scaled: break;
    case MethodFamily::kivi: {
      const int boundary = kivi_boundary(m, block.tokens);
      if (begin < boundary && end > boundary) throw std::invalid_argument("reconstruct_rows: range crosses KIVI window");
      kivi_rows(m, target.kind, rows, begin >= boundary, out);
      return;
    }
  }
}

std::vector<float> reconstruct_block(const MethodSpec& m, const CodecTarget& target, BlockView block) {
  std::vector<float> out(block.size());
  if (block.tokens == 0) return out;
  if (m.family != MethodFamily::kivi) {
    reconstruct_rows(m, target, block, 0, block.tokens, out.data());
    return out;
  }
  const int boundary = kivi_boundary(m, block.tokens);
  if (boundary > 0) reconstruct_rows(m, target, block, 0, boundary, out.data());
  if (boundary < block.tokens) {
    reconstruct_rows(m, target, block, boundary, block.tokens, out.data() + row_offset(boundary, block.channels));
  }
  return out;
}

std::string reconstruction_id(const MethodSpec& m, bool anchor_only) {
  if (m.format) return format_reconstruction_id(m, anchor_only);
  const bool plain_int8 = m.family == MethodFamily::lynx && !m.quantspec() && !anchor_only;
  if (m.family == MethodFamily::int_n || plain_int8) {
    return "int" + std::to_string(plain_int8 ? 8 : m.bits) + "/g" + std::to_string(m.group_size);
  }
  if (m.family == MethodFamily::bf16) return "bf16";
  return m.canonical() + (anchor_only && m.speculative() ? "/anchor" : "/full");
}

std::pair<int, int> group_rows(const MethodSpec& m, TensorKind kind, int tokens, int token) {
  if (token < 0 || token >= tokens) throw std::invalid_argument("group_rows: token out of range");
  int group = 1;
  if (m.family == MethodFamily::kivi && kind == TensorKind::key) {
    const int boundary = kivi_boundary(m, tokens);
    if (token >= boundary) return {token, token + 1};
    group = m.kivi_group;
  }
  if (m.quantspec() && kind == TensorKind::key) group = m.group_size > 0 ? m.group_size : quant::kQuantSpecDefaultGroup;
  const int begin = token / group * group;
  return {begin, std::min(tokens, begin + group)};
}

}  // namespace lynxsim::accuracy
