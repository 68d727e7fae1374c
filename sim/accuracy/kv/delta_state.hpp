#pragma once
// The recurrent state of a gated-DeltaNet layer (Yang et al., "Gated Delta Networks",
// arXiv:2412.06464; Qwen3-Next's torch_recurrent_gated_delta_rule) and synthetic inputs for it.
//
// One value head keeps S, dk x dv (key_head_dim x value_head_dim; Qwen3-Next 128 x 128), float32 as
// in the reference implementation (it casts q, k, v, g and beta to float32 and keeps the state so).
// One token t updates it by the gated delta rule and reads it out with its query:
//   S ← alpha_t · S                          (decay, alpha_t = exp(g_t))
//   S ← S + k_t (beta_t (v_t − Sᵀ k_t))ᵀ      (delta rule: write v_t at key k_t)
//   o_t = Sᵀ q_t
// i.e. S_t = alpha_t (I − beta_t k_t k_tᵀ) S_{t−1} + beta_t k_t v_tᵀ, with ‖k_t‖ = ‖q_t‖ = 1. An
// error E in the state evolves as E ← alpha_t (I − beta_t k_t k_tᵀ) E under the same inputs (the
// write term cancels), a contraction for beta_t ∈ (0, 1]: this is how an anchored state's error
// fades as decode continues from it.
// Inputs (layer_profiles.hpp): alpha, beta from the gate parameters of the head, k and q isotropic
// unit vectors, v = SiLU(N(0,1)) per channel. Each head draws from its own stream, so a state is
// identical whatever else is sampled.

#include <cstdint>
#include <vector>

#include "sim/accuracy/accuracy_rng.hpp"
#include "sim/accuracy/kv/layer_profiles.hpp"

namespace lynxsim::accuracy {

struct DeltaToken {
  double alpha = 1.0;
  double beta = 0.0;
  std::vector<float> k;  // dk, unit
  std::vector<float> v;  // dv
};

// One token of the gated delta rule on S (dk x dv, row-major by key channel).
void delta_step(float* state, int dk, int dv, const DeltaToken& token);

// o = Sᵀ q (dv values).
std::vector<double> state_readout(const float* state, int dk, int dv, const std::vector<float>& q);

// A random unit vector of n values.
std::vector<float> unit_vector(AccuracyRng& rng, int n);

// The token stream of one value head: its gate parameters are drawn on construction.
class DeltaInputs {
public:
  DeltaInputs(const StateProfile& profile, int dk, int dv, std::uint64_t stream_seed);
  DeltaToken next();

private:
  AccuracyRng rng_;
  int dk_;
  int dv_;
  double a_ = 0.0;
  double dt_bias_ = 0.0;
  double a_std_ = 1.0;
  double b_std_ = 1.0;
};

// The state after `tokens` tokens of `inputs`, from zero.
std::vector<float> run_delta_rule(DeltaInputs& inputs, int dk, int dv, int tokens);

}  // namespace lynxsim::accuracy
