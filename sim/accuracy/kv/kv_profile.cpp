#include "sim/accuracy/kv/kv_profile.hpp"

namespace lynxsim::accuracy {

Range DepthRange::at(double depth) const {
  return Range{shallow.lo + depth * (deep.lo - shallow.lo), shallow.hi + depth * (deep.hi - shallow.hi)};
}

namespace {

KvProfile llama_like() {
  KvProfile p;
  p.name = "llama-like";
  p.description =
      "Llama-3-class keys and values: outlier key channels in the slow RoPE pairs, heavy tails, token locality, an "
      "attention sink.";
  p.keys.ar_rho = {0.5, 0.9};
  p.keys.student_nu = {4.0, 6.0};
  p.keys.outlier_channels = {2.0, 8.0};
  p.keys.outlier_scale = {{12.0, 20.0}, {5.0, 12.0}};
  p.keys.fixed_sign_fraction = 0.5;
  p.keys.outlier_token_rate = 0.002;
  p.keys.channel_sigma_spread = 0.3;
  p.keys.channel_mean_scale = 0.5;
  p.values = {0.6, {4.0, 6.0}, 0.3};
  p.queries = {0.5, {{2.0, 3.5}, {1.2, 2.5}}};
  p.sink_score_margin = 5.0;
  p.sink_value_scale = 0.1;
  p.needle_margin = 5.5;
  return p;
}

}  // namespace

const KvProfile& default_kv_profile() {
  static const KvProfile profile = llama_like();
  return profile;
}

}  // namespace lynxsim::accuracy
