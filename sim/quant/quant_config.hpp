#pragma once
// Group quantization parameters and the group layout of one KV block.
//
// A block is [tokens][channels]. Values are quantized in groups that share one scale s and one
// minimum m (both stored as fp16):
//   - per-token groups run along the channels of one token: token t, channels [j·G, (j+1)·G);
//   - per-channel groups run along the tokens of one channel: channel c, tokens [j·G, (j+1)·G)
//     (KIVI / KVQuant keys, whose outliers live in fixed channels).
// G is any positive size; the last group of a row or column is shorter when G does not divide it.
// Group ids: per-token g = t·ceil(C/G) + c/G; per-channel g = (t/G)·C + c (token-group major, so the
// C groups of one token range are contiguous, which keeps every inner loop over contiguous channels).
//
// Asymmetric (default), b bits, L = 2^b − 1 levels above zero:
//   s = fp16((max − min) / L),  m = fp16(min),  q = clamp(round_half_even((x − m)·(1/s)), 0, L),
//   x̂ = q·s + m.
// Symmetric absmax: s = fp16(absmax / (2^(b−1) − 1)), m = −2^(b−1)·s (exact in fp16), same q and x̂,
// so the code 2^(b−1) is the value zero. A group whose fp16 scale is 0 (max == min, or a range too
// small for fp16) gets 1/s := 0: every code is 0 and x̂ = m. Arithmetic is float32 with the
// fp16-rounded s and m, so the receiver's reconstruction equals what the sender computed.
// Valid: 2 <= b <= 8. Inputs must be finite and the metadata must fit fp16 (|m|, s <= 65504).

#include <cstddef>
#include <cstdint>
#include <string>

namespace lynxsim::quant {

enum class GroupAxis { per_token, per_channel };

struct QuantConfig {
  int bits = 8;
  GroupAxis group_axis = GroupAxis::per_token;
  int group_size = 128;
  bool symmetric = false;

  void validate() const;  // throws std::invalid_argument
  int max_code() const { return (1 << bits) - 1; }
};

std::string to_string(GroupAxis axis);

// Number of groups and the group of each element for a [tokens][channels] block.
struct GroupLayout {
  GroupAxis axis = GroupAxis::per_token;
  int group_size = 1;
  int tokens = 0;
  int channels = 0;
  int groups_per_row = 0;    // per-token: groups along the channels of one token
  int token_groups = 0;      // per-channel: groups along the tokens of one channel

  GroupLayout(const QuantConfig& config, int num_tokens, int num_channels);
  std::size_t num_groups() const;
  std::size_t group_of(int token, int channel) const {
    if (axis == GroupAxis::per_token) {
      return static_cast<std::size_t>(token) * static_cast<std::size_t>(groups_per_row) +
             static_cast<std::size_t>(channel / group_size);
    }
    return static_cast<std::size_t>(token / group_size) * static_cast<std::size_t>(channels) +
           static_cast<std::size_t>(channel);
  }
};

// Scale and minimum of one group (fp16 bits) and the float32 values the arithmetic uses.
struct GroupParams {
  std::uint16_t scale_bits = 0;
  std::uint16_t min_bits = 0;
  float scale = 0.0F;
  float min = 0.0F;
  float inv_scale = 0.0F;  // 1/scale, or 0 when scale is 0
};

// Computes the group parameters from the group's extremes (lo <= hi, both finite).
GroupParams make_group_params(float lo, float hi, const QuantConfig& config);
// Rebuilds the float32 parameters from stored fp16 bits (the receiver's view).
GroupParams group_params_from_bits(std::uint16_t scale_bits, std::uint16_t min_bits);

}  // namespace lynxsim::quant
