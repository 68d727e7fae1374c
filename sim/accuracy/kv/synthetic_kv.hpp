#pragma once
// Synthetic keys and values that look like a real Llama-class KV cache (docs/accuracy.md, "Sources of K/V").
//
// Keys of one (layer, KV head), before RoPE:
//   K[t,c] = mu_c + sigma_c · z[t,c],   z[t,c] = rho · z[t−1,c] + sqrt(1 − rho²) · e[t,c],
// with e unit-variance Student-t (nu drawn from the profile), so z has unit variance, heavy tails and
// token locality. Ordinary channels: sigma_c log-normal around 1 (the median), mu_c a fraction of
// sigma_c. Outlier channels (count drawn from the profile) sit in the slow RoPE pairs (pair index
// i >= d/4) with sigma and |mu| at a scale S of 5-20x the median, S interpolated from shallow to
// deep layers; a "fixed-sign" outlier has |mu| = S and sigma = S/4 so it keeps one sign over all
// tokens, the others have |mu| ~ U(0.2, 1)·S and sigma ~ U(0.5, 1)·S. With probability
// outlier_token_rate per token, a token shrinks (x0.1) or flips (x−1) every outlier channel.
// RoPE with the model's theta is then applied at positions 0..T−1.
//
// Values: V[t,c] = s_t · g[t,c], log s_t ~ N(0, token_scale_sigma²), g an AR(1) Student-t series
// (weak locality), no channel structure.
//
// Queries (query_model.hpp) lean on the key mean direction, the direction the outlier channels
// dominate, and are scaled to the profile's logit standard deviation. Token 0 becomes an attention
// sink: its key lies along the mean direction with a length chosen so its logit exceeds the mean by
// sink_score_margin standard deviations on average over the sampled queries, and its value is
// shrunk to sink_value_scale (sinks carry little content in real models).
//
// Cost: the Student-t innovations of a block are picked from a table of 2^16 exact draws made for that
// block (a draw costs a table lookup instead of a pow), so their tails are represented up to about
// the 1 − 2^−16 quantile; the outlier tokens model the rarer extremes.
//
// Determinism: every (layer, KV head) block draws from its own stream derived from (seed, layer,
// head), so a block is identical whatever else is sampled. Cost O(T·d) per block.

#include <cstdint>
#include <vector>

#include "sim/accuracy/kv/head_kv.hpp"
#include "sim/accuracy/kv/kv_profile.hpp"

namespace lynxsim::accuracy {

// The block of (layer, kv_head) with `tokens` tokens and one query per entry of query_positions
// (each in [1, tokens − 1]).
HeadKv generate_synthetic_head(const KvGeometry& geometry, const KvProfile& profile, int layer, int kv_head,
                               int tokens, const std::vector<int>& query_positions, std::uint64_t seed);

// The layer's depth in [0, 1] used to interpolate DepthRange parameters.
double layer_depth(int layer, int num_layers);

}  // namespace lynxsim::accuracy
