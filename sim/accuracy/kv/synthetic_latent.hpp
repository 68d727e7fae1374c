#pragma once
// Synthetic MLA latents (DeepSeek-V2/V3) as the decode side caches and attends them.
//
// Row t of the cache is [c_kv,t ; k_pe,t] (kv_lora_rank + qk_rope_head_dim values, head_dim of the
// geometry; latent_rope_dim is the k_pe part), layer_profiles.hpp gives the statistics:
//   x[t,c] = mu_c + sigma_c · z[t,c]   (z: unit-variance Student-t AR(1) over tokens, sigma_c
//            log-normal, mu_c = channel_mean_scale · sigma_c · N(0,1), the KV profile's key fields)
//   c_kv[t,c] = gain_c · x[t,c] / sqrt(mean_c x[t,c]²)          (kv_a_layernorm, RMSNorm)
//   k_pe[t]   = rope_scale · the KV profile's synthetic RoPE key of a 64-dimensional head (outlier
//               channels in the slow pairs, its attention sink at token 0)
// Absorbed attention (FlashMLA, SGLang's forward_absorb): every query head attends the one latent as
// multi-query attention with keys [c_kv ; k_pe] and values c_kv, so the block's values are its keys
// with the k_pe part set to zero (the output in latent space, 512 values plus 64 zeros), and the
// per-head W_UV map that follows is linear, so the latent-space relative error is the measure.
// Queries: the KV profile's query model along the mean latent direction (query_model.hpp), one per
// sampled position; they stand for the num_heads heads that share the latent.
// Determinism: streams derived from (seed, layer); cost O(T·head_dim).

#include <cstdint>
#include <vector>

#include "sim/accuracy/kv/head_kv.hpp"
#include "sim/accuracy/kv/kv_profile.hpp"
#include "sim/accuracy/kv/layer_profiles.hpp"

namespace lynxsim::accuracy {

// The latent block of `layer` (geometry.latent() must hold) with `tokens` tokens.
HeadKv generate_synthetic_latent(const KvGeometry& geometry, const KvProfile& profile, const LatentProfile& latent,
                                 int layer, int tokens, const std::vector<int>& query_positions, std::uint64_t seed);

// The normalized part alone: tokens rows of `rank` values, c_kv before (gain_spread 0) or after the gain.
std::vector<float> synthetic_ckv(const KeyProfile& keys, const LatentProfile& latent, int rank, int tokens,
                                 std::uint64_t stream_seed);

// Sets the k_pe columns [head_dim − rope_dim, head_dim) of values to zero.
void zero_rope_part(std::vector<float>& values, int head_dim, int rope_dim);

}  // namespace lynxsim::accuracy
