#pragma once
// CacheGen's quantizer: symmetric, one absmax scale per token over all channels of a layer, and an
// optional lossless delta transform of the codes along tokens.
//
// Quantization (per token t of one layer, channels c = 0 .. C-1, C = kv_heads * head_dim, B bins,
// h = B/2 - 1 steps on each side of zero):
//   a_t = fp16(max_c |x[t,c]|)                (the scale ships as fp16, rounded to nearest)
//   q[t,c] = clamp(round_half_away(x[t,c] * h / a_t), -h, h)
//   x^[t,c] = q[t,c] * a_t / h
// so the error is at most a_t / (2h) per sample (plus the clamp when fp16 rounding shrank a_t), and
// a token whose samples are all zero has a_t = 0 and decodes to zeros. |x| must stay below the fp16
// limit 65504; non-finite input is rejected.
//
// Delta transform (CacheGen's token-locality coding, applied to the integer codes so it changes the
// coded size but never the precision): tokens form groups of G consecutive tokens; the first token of
// a group (the anchor) keeps its code, every other token sends d[t,c] = q[t,c] - q[anchor,c], in
// [-2h, 2h]. Because each token has its own scale, the transform pays off only where neighbouring
// tokens have similar scales and values (deep outlier-dominated layers, strong AR(1) locality).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lynxsim::quant {

struct CacheGenCodes {
  std::size_t num_tokens = 0;
  std::size_t num_channels = 0;
  int half_levels = 0;                     // h
  std::vector<std::uint16_t> scales_fp16;  // a_t per token, fp16 bits
  std::vector<std::int8_t> codes;          // [token][channel], q in [-h, h] (or deltas in [-2h, 2h])
};

// Quantizes x ([num_tokens][num_channels], row-major) with `bins` bins.
CacheGenCodes cachegen_quantize(std::span<const float> x, std::size_t num_tokens,
                                std::size_t num_channels, int bins);

// x^ from codes (which must not be in delta form).
std::vector<float> cachegen_dequantize(const CacheGenCodes& codes);

// In-place delta transform along tokens with groups of group_tokens (>= 1) and its inverse.
void cachegen_delta_forward(CacheGenCodes& codes, std::size_t group_tokens);
void cachegen_delta_inverse(CacheGenCodes& codes, std::size_t group_tokens);

}  // namespace lynxsim::quant
