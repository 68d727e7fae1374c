#include "sim/accuracy/kv/layer_profiles.hpp"

#include <sstream>

namespace lynxsim::accuracy {

std::string LayerProfiles::canonical() const {
  std::ostringstream out;
  out.precision(17);
  out << "latent{gain_spread=" << latent.gain_spread << ",rope_scale=" << latent.rope_scale << ",sink=" << latent.sink_score_margin << "}state{A=" << state.a_lo
      << ".." << state.a_hi << ",dt=" << state.dt_lo << ".." << state.dt_hi << ",a_std=" << state.a_std
      << ",b_std=" << state.b_std << ",queries=" << state.readout_queries << ",steps=";
  for (const int s : state.continue_steps) out << s << ";";
  out << "}";
  return out.str();
}

const LayerProfiles& default_layer_profiles() {
  static const LayerProfiles profiles = [] {
    LayerProfiles p;
    p.latent.gain_spread = 0.3;
    p.latent.rope_scale = 1.0;
    return p;
  }();
  return profiles;
}

}  // namespace lynxsim::accuracy
