#pragma once
// Parameters of the tensors an MLA layer and a gated-DeltaNet layer send (synthetic_latent.hpp,
// delta_state.hpp), each with where its value comes from (docs/accuracy.md, "Latents and states").
// The built-in values equal configs/kv_profiles/layer-kinds.json (read by the store layer,
// sim/store/layer_profiles_json.hpp), whose "sources" section cites each of them.
//
// MLA latent row of one token (DeepSeek-V2/V3 modeling code, MultiHeadLatentAttention):
//   c_kv = kv_a_layernorm(x) = gain ⊙ x / rms(x)     (kv_lora_rank values; rms(x) = sqrt(mean x²))
//   k_pe = RoPE(W_KR h)                               (qk_rope_head_dim values, one key for all heads)
// x is drawn like the llama-like profile's ordinary key channels (per-channel sigma log-normal with
// the profile's channel_sigma_spread, Student-t AR(1) over tokens) and then normalized, so c_kv has
// unit RMS per token before the gain. The gain is log-normal around 1 with spread gain_spread (the
// RMSNorm weight is initialised to ones; no published statistic of the trained kv_a_layernorm
// weight was found, so the spread, 0.3 like the ordinary key channels', is a stated assumption).
// k_pe is a RoPE key of the llama-like profile (outlier channels in the slow pairs) scaled by
// rope_scale relative to c_kv's unit RMS; its token 0 is a sink only if sink_score_margin > 0.
//
// Gated DeltaNet (Yang et al., arXiv:2412.06464; Qwen3-Next's Qwen3NextGatedDeltaNet):
//   alpha_t = exp(−A · softplus(a_t + dt_bias)),  A ~ U(a_lo, a_hi) per head (A_log = log U(0, 16)
//             at initialisation), dt_bias = softplus⁻¹(dt) with dt log-uniform in [dt_lo, dt_hi]
//             per head (the Mamba-2 / FLA GatedDeltaNet initialisation), a_t ~ N(0, a_std²);
//   beta_t  = sigmoid(b_t),  b_t ~ N(0, b_std²);
//   k_t, q_t  L2-normalised (use_qk_l2norm_in_kernel), isotropic directions;
//   v_t     = SiLU(z), z ~ N(0, 1) per channel (the short convolution's SiLU output).
// The a_t, b_t draws follow FLA's GatedDeltaNet benchmark inputs (randn); trained statistics of
// Qwen3-Next's gates are not published. Units: none (all ratios).

#include <string>
#include <vector>

namespace lynxsim::accuracy {

struct LatentProfile {
  double gain_spread = 0.0;  // log-normal sigma of the kv_a_layernorm gain per channel
  double rope_scale = 1.0;   // k_pe's median channel sigma relative to c_kv's unit RMS
  double sink_score_margin = 0.0;  // token 0's k_pe as the KV profile's sink with this margin
};

struct StateProfile {
  double a_lo = 0.0;        // A ~ U(a_lo, a_hi) per value head
  double a_hi = 16.0;
  double dt_lo = 0.001;     // dt log-uniform in [dt_lo, dt_hi] per value head
  double dt_hi = 0.1;
  double a_std = 1.0;       // a_t ~ N(0, a_std²)
  double b_std = 1.0;       // b_t ~ N(0, b_std²)
  int readout_queries = 16;               // normalised queries per state for the readout error
  std::vector<int> continue_steps = {1, 4, 16, 64, 256};  // steps after the anchor, ascending
};

struct LayerProfiles {
  LatentProfile latent;
  StateProfile state;
  std::string canonical() const;
};

// The built-in parameters (the sources above).
const LayerProfiles& default_layer_profiles();

}  // namespace lynxsim::accuracy
