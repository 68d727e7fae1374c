#include "sim/accuracy/methods/anchor_reconstruction.hpp"

#include <array>
#include <stdexcept>

namespace lynxsim::accuracy {

void reconstruct_top_bits(const quant::QuantizedBlock& block, int kept_bits, float* out) {
  const int bits = block.config.bits;
  if (block.config.group_axis != quant::GroupAxis::per_token) throw std::invalid_argument("top-bit reconstruction: per-token groups only");
  if (kept_bits < 1 || kept_bits > bits) throw std::invalid_argument("top-bit reconstruction: kept bits out of range");
  const int dropped = bits - kept_bits;
  const float offset = static_cast<float>((1 << dropped) - 1) * 0.5F;
  std::array<float, 256> level{};
  for (unsigned q = 0; q < 256; ++q) level[q] = static_cast<float>((q >> dropped) << dropped) + offset;
  const quant::GroupLayout layout = block.layout();
  const int channels = block.channels;
  const int group = block.config.group_size;
  for (int t = 0; t < block.tokens; ++t) {
    const std::size_t row = static_cast<std::size_t>(t) * static_cast<std::size_t>(channels);
    for (int c0 = 0; c0 < channels; c0 += group) {
      const std::size_t g = layout.group_of(t, c0);
      const quant::GroupParams p = quant::group_params_from_bits(block.scales[g], block.mins[g]);
      const int c1 = c0 + group < channels ? c0 + group : channels;
      for (int c = c0; c < c1; ++c) {
        const std::size_t i = row + static_cast<std::size_t>(c);
        out[i] = level[block.codes[i]] * p.scale + p.min;
      }
    }
  }
}

}  // namespace lynxsim::accuracy
