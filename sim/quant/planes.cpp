#include "sim/quant/planes.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>


namespace lynxsim::quant {
namespace {

// level = (hi << dropped) + offset for the elements [first, first + levels.size()) of the first k planes
// (hi: scratch of the same size).
void row_levels(const PlaneCodes& planes, const PlaneSplit& split, int k, std::size_t first, int dropped_bits,
                float offset, std::vector<std::uint32_t>& hi, std::vector<float>& levels) {
  std::fill(hi.begin(), hi.end(), 0U);
  for (int p = 0; p < k; ++p) {
    const int width = split.bits[static_cast<std::size_t>(p)];
    const std::uint8_t* plane = planes[static_cast<std::size_t>(p)].data() + first;
    for (std::size_t c = 0; c < hi.size(); ++c) {
      hi[c] = (hi[c] << width) | plane[c];
    }
  }
  for (std::size_t c = 0; c < hi.size(); ++c) {
    levels[c] = static_cast<float>(hi[c] << dropped_bits) + offset;
  }
}

// Float32 scale and minimum of the group of each channel of the current row, decoded from fp16 once
// per group: per-token rows decode their own groups, per-channel groups are decoded at the first row
// of each token group.
class GroupColumns {
public:
  explicit GroupColumns(const GroupLayout& layout)
      : layout_(layout), scale_(static_cast<std::size_t>(layout.channels)), min_(scale_.size()) {}

  void load_row(const QuantizedBlock& block, int token) {
    const bool per_token = layout_.axis == GroupAxis::per_token;
    if (!per_token && token % layout_.group_size != 0) {
      return;
    }
    const auto group = static_cast<std::size_t>(layout_.group_size);
    for (std::size_t c = 0; c < scale_.size(); c += per_token ? group : 1) {
      const std::size_t g = layout_.group_of(token, static_cast<int>(c));
      const GroupParams p = group_params_from_bits(block.scales[g], block.mins[g]);
      const std::size_t end = per_token ? std::min(scale_.size(), c + group) : c + 1;
      std::fill(scale_.begin() + static_cast<std::ptrdiff_t>(c), scale_.begin() + static_cast<std::ptrdiff_t>(end),
                p.scale);
      std::fill(min_.begin() + static_cast<std::ptrdiff_t>(c), min_.begin() + static_cast<std::ptrdiff_t>(end), p.min);
    }
  }
  float scale_at(std::size_t c) const { return scale_[c]; }
  float min_at(std::size_t c) const { return min_[c]; }

private:
  const GroupLayout& layout_;
  std::vector<float> scale_;
  std::vector<float> min_;
};

}  // namespace

std::string to_string(const PlaneSplit& split) {
  std::string text;
  for (int b : split.bits) {
    if (!text.empty()) {
      text += '+';
    }
    text += std::to_string(b);
  }
  return text.empty() ? "(empty)" : text;
}

int PlaneSplit::total_bits() const { return std::accumulate(bits.begin(), bits.end(), 0); }

int PlaneSplit::bits_in_first(int k) const {
  if (k < 0 || k > num_planes()) {
    throw std::invalid_argument("plane split " + to_string(*this) + ": cannot take the first " + std::to_string(k) +
                                " planes");
  }
  return std::accumulate(bits.begin(), bits.begin() + k, 0);
}

int PlaneSplit::shift_of(int plane) const { return total_bits() - bits_in_first(plane + 1); }

void PlaneSplit::validate(int code_bits) const {
  if (bits.empty()) {
    throw std::invalid_argument("plane split: at least one plane is needed");
  }
  for (int b : bits) {
    if (b < 1 || b > 8) {
      throw std::invalid_argument("plane split " + to_string(*this) + ": every plane needs 1 to 8 bits");
    }
  }
  if (total_bits() != code_bits) {
    throw std::invalid_argument("plane split " + to_string(*this) + " has " + std::to_string(total_bits()) +
                                " bits, the code has " + std::to_string(code_bits));
  }
}

PlaneCodes split_planes(std::span<const std::uint8_t> codes, int code_bits, const PlaneSplit& split) {
  split.validate(code_bits);
  PlaneCodes planes(split.bits.size(), std::vector<std::uint8_t>(codes.size()));
  for (int p = 0; p < split.num_planes(); ++p) {
    const int shift = split.shift_of(p);
    const unsigned mask = (1U << split.bits[static_cast<std::size_t>(p)]) - 1U;
    auto& plane = planes[static_cast<std::size_t>(p)];
    for (std::size_t i = 0; i < codes.size(); ++i) {
      plane[i] = static_cast<std::uint8_t>((static_cast<unsigned>(codes[i]) >> shift) & mask);
    }
  }
  return planes;
}

std::vector<std::uint8_t> merge_planes(const PlaneCodes& planes, const PlaneSplit& split) {
  split.validate(split.total_bits());
  if (planes.size() != split.bits.size()) {
    throw std::invalid_argument("merge: " + std::to_string(planes.size()) + " planes given, split " +
                                to_string(split) + " has " + std::to_string(split.bits.size()));
  }
  std::vector<std::uint8_t> codes(planes.front().size(), 0);
  for (int p = 0; p < split.num_planes(); ++p) {
    const auto& plane = planes[static_cast<std::size_t>(p)];
    if (plane.size() != codes.size()) {
      throw std::invalid_argument("merge: planes hold different numbers of codes");
    }
    const int shift = split.shift_of(p);
    for (std::size_t i = 0; i < codes.size(); ++i) {
      codes[i] = static_cast<std::uint8_t>(codes[i] | (static_cast<unsigned>(plane[i]) << shift));
    }
  }
  return codes;
}

void reconstruct_from_planes(const QuantizedBlock& block, const PlaneCodes& planes, const PlaneSplit& split, int k,
                             MutableBlockView output, AnchorRounding rounding) {
  split.validate(block.config.bits);
  const int kept_bits = split.bits_in_first(k);
  if (k < 1 || static_cast<int>(planes.size()) < k) {
    throw std::invalid_argument("reconstruction: needs at least one and at most the given planes, k = " +
                                std::to_string(k));
  }
  if (output.tokens != block.tokens || output.channels != block.channels) {
    throw std::invalid_argument("reconstruction: output view shape differs from the block");
  }
  const int dropped_bits = block.config.bits - kept_bits;
  const float offset =
      rounding == AnchorRounding::midpoint ? static_cast<float>((1 << dropped_bits) - 1) * 0.5F : 0.0F;
  const GroupLayout layout = block.layout();
  const auto channels = static_cast<std::size_t>(block.channels);
  std::vector<float> levels(channels);
  std::vector<std::uint32_t> hi(channels);
  GroupColumns columns(layout);
  for (int t = 0; t < block.tokens; ++t) {
    row_levels(planes, split, k, static_cast<std::size_t>(t) * channels, dropped_bits, offset, hi, levels);
    columns.load_row(block, t);
    float* out = output.row(t);
    for (std::size_t c = 0; c < channels; ++c) {
      out[c] = levels[c] * columns.scale_at(c) + columns.min_at(c);
    }
  }
}

std::vector<float> reconstruct_from_planes(const QuantizedBlock& block, const PlaneSplit& split, int k,
                                           AnchorRounding rounding) {
  std::vector<float> out(block.codes.size());
  const PlaneCodes planes = split_planes(block.codes, block.config.bits, split);
  reconstruct_from_planes(block, planes, split, k, MutableBlockView(out, block.tokens, block.channels), rounding);
  return out;
}

}  // namespace lynxsim::quant
