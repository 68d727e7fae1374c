#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "sim/quant/bit_pack.hpp"
#include "sim/quant/fast_kernels.hpp"
#include "sim/quant/input_check.hpp"
#include "sim/quant/quantize.hpp"
#include "sim/quant/span_kernels.hpp"

namespace lynxsim::quant {
namespace {

// Per-token groups of consecutive rows have consecutive ids, so rows [t0, t1) are handled as runs of
// up to kBatchGroups groups (few enough that a run stays in L1 between its passes): extremes of each,
// then the parameters of the whole run at once (the vectorized fp16 conversions of span_kernels.hpp),
// then the codes.
constexpr std::size_t kBatchGroups = 16;

// Walks the per-token groups of consecutive rows in id order without dividing.
class GroupCursor {
public:
  explicit GroupCursor(const GroupLayout& layout)
      : channels_(static_cast<std::size_t>(layout.channels)), group_(static_cast<std::size_t>(layout.group_size)) {}

  std::size_t row() const { return row_; }
  std::size_t offset() const { return offset_; }
  std::size_t size() const { return std::min(group_, channels_ - offset_); }
  std::size_t element() const { return row_ * channels_ + offset_; }
  void next() {
    offset_ += group_;
    if (offset_ >= channels_) {
      offset_ = 0;
      ++row_;
    }
  }

private:
  std::size_t channels_;
  std::size_t group_;
  std::size_t row_ = 0;     // token relative to the first row of the call
  std::size_t offset_ = 0;  // first channel of the group
};

// emit(x, element, n, min, inv_scale) quantizes the n floats of one group, x = the group's first input.
template <typename Emit>
void per_token_groups(const SpanKernels& k, BlockView input, const BlockMetadata& meta, int token_begin,
                      int token_end, const Emit& emit) {
  const GroupLayout& layout = *meta.layout;
  const std::size_t first = static_cast<std::size_t>(token_begin) * static_cast<std::size_t>(layout.groups_per_row);
  const std::size_t count = static_cast<std::size_t>(token_end - token_begin) * static_cast<std::size_t>(layout.groups_per_row);
  float lo[kBatchGroups];
  float hi[kBatchGroups];
  float mins[kBatchGroups];
  float inv[kBatchGroups];
  const float* x = input.row(token_begin);
  GroupCursor stats(layout);
  GroupCursor quant(layout);
  for (std::size_t b0 = 0; b0 < count; b0 += kBatchGroups) {
    const std::size_t n = std::min(kBatchGroups, count - b0);
    for (std::size_t j = 0; j < n; ++j, stats.next()) {
      if (!k.extremes(x + stats.element(), stats.size(), lo + j, hi + j) || !std::isfinite(lo[j]) ||
          !std::isfinite(hi[j])) {
        const int t = token_begin + static_cast<int>(stats.row());
        reject_non_finite(input, t, t + 1);
      }
    }
    k.group_params(lo, hi, n, *meta.config,
                   GroupParamArrays{meta.scales + first + b0, meta.mins + first + b0, mins, inv});
    for (std::size_t j = 0; j < n; ++j, quant.next()) {
      emit(x + quant.element(), quant.element(), quant.size(), mins[j], inv[j]);
    }
  }
}

void quantize_rows_per_token(const SpanKernels& k, BlockView input, const BlockMetadata& meta, int token_begin,
                             int token_end, std::uint8_t* codes) {
  const auto max_code = static_cast<float>(meta.config->max_code());
  per_token_groups(k, input, meta, token_begin, token_end,
                   [&](const float* x, std::size_t element, std::size_t n, float min, float inv_scale) {
                     k.quantize_span(x, n, min, inv_scale, max_code, codes + element);
                   });
}

// The codes of one group into every plane: the vector kernel's leading multiple of 32, then the rest
// through a small code buffer and the plane packers.
void quantize_group_to_planes(const SpanKernels& k, const float* x, std::size_t n, float min, float inv_scale,
                              float max_code, const PlaneTargets& planes) {
  constexpr std::size_t kTail = 256;
  std::uint8_t codes[kTail];
  for (std::size_t done = k.quantize_planes(x, n, min, inv_scale, max_code, planes); done < n;) {
    const std::size_t step = std::min(kTail, n - done);
    k.quantize_span(x + done, step, min, inv_scale, max_code, codes);
    for (int p = 0; p < planes.count; ++p) {
      const PlaneTarget& t = planes.plane[p];
      pack_shifted_into(codes, step, t.shift, t.bits, t.bytes + done * static_cast<std::size_t>(t.bits) / 8);
    }
    done += step;
  }
}

void quantize_rows_per_channel(const SpanKernels& k, BlockView input, const BlockMetadata& meta, int token_begin,
                               int token_end, std::uint8_t* codes) {
  const auto channels = static_cast<std::size_t>(input.channels);
  const int group = meta.layout->group_size;
  const auto max_code = static_cast<float>(meta.config->max_code());
  std::vector<float> scratch(4 * channels);
  float* lo = scratch.data();
  float* hi = lo + channels;
  float* mins = hi + channels;
  float* inv = mins + channels;
  for (int t0 = token_begin; t0 < token_end; t0 += group) {
    const int t1 = std::min(token_end, t0 + group);
    std::copy(input.row(t0), input.row(t0) + channels, lo);
    std::copy(input.row(t0), input.row(t0) + channels, hi);
    bool no_nan = true;
    for (int t = t0; t < t1; ++t) {
      no_nan = k.extremes_update(input.row(t), channels, lo, hi) && no_nan;
    }
    if (!no_nan || !all_finite(lo, channels) || !all_finite(hi, channels)) {
      reject_non_finite(input, t0, t1);
    }
    const std::size_t g0 = static_cast<std::size_t>(t0 / group) * channels;
    k.group_params(lo, hi, channels, *meta.config, GroupParamArrays{meta.scales + g0, meta.mins + g0, mins, inv});
    for (int t = t0; t < t1; ++t) {
      k.quantize_span_per_channel(input.row(t), channels, mins, inv, max_code,
                                  codes + static_cast<std::size_t>(t - token_begin) * channels);
    }
  }
}

// The group size g when per-token groups of one size, a multiple of 32, tile every row (g divides the
// channels), so that a run of groups is contiguous in the input, the output and every plane; else 0.
std::size_t uniform_group_size(const GroupLayout& layout) {
  const int g = std::min(layout.group_size, layout.channels);
  const bool uniform = layout.axis == GroupAxis::per_token && g > 0 && layout.channels % g == 0 && g % 32 == 0;
  return uniform ? static_cast<std::size_t>(g) : 0;
}

// Rows of uniform groups (uniform_group_size) straight into planes, kBatchGroups groups per kernel call.
void quantize_uniform_to_planes(const SpanKernels& k, BlockView input, const BlockMetadata& meta, int token_begin,
                                int token_end, const PlaneTargets& planes, bool stream) {
  const auto channels = static_cast<std::size_t>(input.channels);
  const std::size_t g = uniform_group_size(*meta.layout);
  const std::size_t first = static_cast<std::size_t>(token_begin) * channels / g;
  const std::size_t count = static_cast<std::size_t>(token_end - token_begin) * channels / g;
  const auto max_code = static_cast<float>(meta.config->max_code());
  float lo[kBatchGroups];
  float hi[kBatchGroups];
  float mins[kBatchGroups];
  float inv[kBatchGroups];
  const float* x = input.row(token_begin);
  for (std::size_t b0 = 0; b0 < count; b0 += kBatchGroups) {
    const std::size_t n = std::min(kBatchGroups, count - b0);
    const float* xb = x + b0 * g;
    if (!k.extremes_groups(xb, n, g, lo, hi) || !all_finite(lo, n) || !all_finite(hi, n)) {
      const auto row_of = [&](std::size_t group) { return token_begin + static_cast<int>(group * g / channels); };
      reject_non_finite(input, row_of(b0), row_of(b0 + n - 1) + 1);
    }
    k.group_params(lo, hi, n, *meta.config,
                   GroupParamArrays{meta.scales + first + b0, meta.mins + first + b0, mins, inv});
    if (k.quantize_groups_planes(xb, n, g, mins, inv, max_code, planes.at(b0 * g), stream) == 0) {
      for (std::size_t j = 0; j < n; ++j) {
        quantize_group_to_planes(k, xb + j * g, g, mins[j], inv[j], max_code, planes.at((b0 + j) * g));
      }
    }
  }
}

void dequantize_rows_per_token(const SpanKernels& k, const std::uint8_t* codes, const ConstBlockMetadata& meta,
                               int token_begin, int token_end, float offset, MutableBlockView output) {
  const GroupLayout& layout = *meta.layout;
  const std::size_t first = static_cast<std::size_t>(token_begin) * static_cast<std::size_t>(layout.groups_per_row);
  const std::size_t count = static_cast<std::size_t>(token_end - token_begin) * static_cast<std::size_t>(layout.groups_per_row);
  float scales[kBatchGroups];
  float mins[kBatchGroups];
  float* out = output.row(token_begin);
  GroupCursor cursor(layout);
  for (std::size_t b0 = 0; b0 < count; b0 += kBatchGroups) {
    const std::size_t n = std::min(kBatchGroups, count - b0);
    k.params_from_bits(meta.scales + first + b0, meta.mins + first + b0, n, scales, mins);
    for (std::size_t j = 0; j < n; ++j, cursor.next()) {
      k.dequantize_span(codes + cursor.element(), cursor.size(), offset, scales[j], mins[j], out + cursor.element());
    }
  }
}

void dequantize_rows_per_channel(const SpanKernels& k, const std::uint8_t* codes, const ConstBlockMetadata& meta,
                                 int token_begin, int token_end, float offset, MutableBlockView output) {
  const auto channels = static_cast<std::size_t>(output.channels);
  const int group = meta.layout->group_size;
  std::vector<float> scratch(2 * channels);
  float* scales = scratch.data();
  float* mins = scales + channels;
  for (int t0 = token_begin; t0 < token_end; t0 = (t0 / group + 1) * group) {
    const int t1 = std::min(token_end, (t0 / group + 1) * group);
    const std::size_t g0 = static_cast<std::size_t>(t0 / group) * channels;
    k.params_from_bits(meta.scales + g0, meta.mins + g0, channels, scales, mins);
    for (int t = t0; t < t1; ++t) {
      k.dequantize_span_per_channel(codes + static_cast<std::size_t>(t - token_begin) * channels, channels, offset,
                                    scales, mins, output.row(t));
    }
  }
}

}  // namespace

void quantize_rows_fast(BlockView input, const BlockMetadata& meta, int token_begin, int token_end,
                        std::uint8_t* codes, KernelIsa isa) {
  if (input.channels == 0 || token_end <= token_begin) {
    return;
  }
  const SpanKernels& k = span_kernels(isa);
  if (meta.layout->axis == GroupAxis::per_token) {
    quantize_rows_per_token(k, input, meta, token_begin, token_end, codes);
  } else {
    quantize_rows_per_channel(k, input, meta, token_begin, token_end, codes);
  }
}

bool planes_on_byte_boundaries(const QuantConfig& config, int channels, const PlaneTargets& planes) {
  if (config.group_axis != GroupAxis::per_token || channels % 8 != 0 ||
      (config.group_size % 8 != 0 && config.group_size < channels)) {
    return false;
  }
  for (int p = 0; p < planes.count; ++p) {
    const int w = planes.plane[p].bits;
    if (w != 1 && w != 2 && w != 4 && w != 8) {
      return false;
    }
  }
  return true;
}

void quantize_rows_to_planes(BlockView input, const BlockMetadata& meta, int token_begin, int token_end,
                             const PlaneTargets& planes, bool stream, KernelIsa isa) {
  if (input.channels == 0 || token_end <= token_begin) {
    return;
  }
  const SpanKernels& k = span_kernels(isa);
  const auto max_code = static_cast<float>(meta.config->max_code());
  if (uniform_group_size(*meta.layout) != 0) {
    quantize_uniform_to_planes(k, input, meta, token_begin, token_end, planes, stream);
    k.store_fence();
    return;
  }
  per_token_groups(k, input, meta, token_begin, token_end,
                   [&](const float* x, std::size_t element, std::size_t n, float min, float inv_scale) {
                     quantize_group_to_planes(k, x, n, min, inv_scale, max_code, planes.at(element));
                   });
}

bool dequantize_rows_from_planes(const PlaneSources& planes, const ConstBlockMetadata& meta, int token_begin,
                                 int token_end, float level_offset, MutableBlockView output, bool stream,
                                 KernelIsa isa) {
  const std::size_t g = output.channels == 0 ? 0 : uniform_group_size(*meta.layout);
  if (g == 0 || token_end <= token_begin) {
    return g != 0;
  }
  const SpanKernels& k = span_kernels(isa);
  const std::size_t first = static_cast<std::size_t>(token_begin) * static_cast<std::size_t>(output.channels) / g;
  const std::size_t count = static_cast<std::size_t>(token_end - token_begin) * static_cast<std::size_t>(output.channels) / g;
  float scales[kBatchGroups];
  float mins[kBatchGroups];
  float* out = output.row(token_begin);
  for (std::size_t b0 = 0; b0 < count; b0 += kBatchGroups) {
    const std::size_t n = std::min(kBatchGroups, count - b0);
    k.params_from_bits(meta.scales + first + b0, meta.mins + first + b0, n, scales, mins);
    if (k.dequantize_groups_planes(planes.at(b0 * g), n, g, scales, mins, level_offset, out + b0 * g, stream) == 0) {
      return false;
    }
  }
  k.store_fence();
  return true;
}

void dequantize_rows_fast(const std::uint8_t* codes, const ConstBlockMetadata& meta, int token_begin, int token_end,
                          float level_offset, MutableBlockView output, KernelIsa isa) {
  if (output.channels == 0 || token_end <= token_begin) {
    return;
  }
  const SpanKernels& k = span_kernels(isa);
  if (meta.layout->axis == GroupAxis::per_channel) {
    dequantize_rows_per_channel(k, codes, meta, token_begin, token_end, level_offset, output);
  } else {
    dequantize_rows_per_token(k, codes, meta, token_begin, token_end, level_offset, output);
  }
}

QuantizedBlock quantize_fast(BlockView input, const QuantConfig& config, KernelIsa isa) {
  QuantizedBlock block{config, input.tokens, input.channels, {}, {}, {}};
  const GroupLayout layout = block.layout();
  block.codes.assign(input.size(), 0);
  block.scales.resize(layout.num_groups());
  block.mins.resize(layout.num_groups());
  const BlockMetadata meta{&config, &layout, block.scales.data(), block.mins.data()};
  quantize_rows_fast(input, meta, 0, input.tokens, block.codes.data(), isa);
  return block;
}

void dequantize_fast(const QuantizedBlock& block, MutableBlockView output, KernelIsa isa) {
  if (output.tokens != block.tokens || output.channels != block.channels) {
    throw std::invalid_argument("dequantization: output view shape differs from the block");
  }
  const GroupLayout layout = block.layout();
  const ConstBlockMetadata meta{&block.config, &layout, block.scales.data(), block.mins.data()};
  dequantize_rows_fast(block.codes.data(), meta, 0, block.tokens, 0.0F, output, isa);
}

}  // namespace lynxsim::quant
