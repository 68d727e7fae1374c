#pragma once
// Parameters of the synthetic K/V generator (synthetic_kv.hpp). Profiles are JSON files
// (configs/kv_profiles/*.json; the fields are documented in docs/accuracy.md) that the store layer
// reads (sim/store/kv_profile_json.hpp).
//
// A Range [lo, hi] is drawn uniformly once per (layer, KV head). A DepthRange interpolates linearly
// between its "shallow" (layer 0) and "deep" (last layer) ranges with the layer's depth
// l / (num_layers − 1), so shallow layers can get stronger outliers and sharper attention. Units:
// scales are multiples of the median key-channel standard deviation (1.0); score_std is the standard
// deviation of the attention logits q·k/sqrt(d) across the keys a query sees; margins are in units
// of that standard deviation.

#include <string>

namespace lynxsim::accuracy {

struct Range {
  double lo = 0.0;
  double hi = 0.0;
};

struct DepthRange {
  Range shallow;
  Range deep;
  Range at(double depth) const;  // depth in [0, 1]
};

struct KeyProfile {
  Range ar_rho;               // AR(1) coefficient of z over tokens (token locality)
  Range student_nu;           // Student-t degrees of freedom of the innovations
  Range outlier_channels;     // number of outlier channels per head (rounded)
  DepthRange outlier_scale;   // outlier sigma and |mu| as multiples of the median sigma
  double fixed_sign_fraction = 0.5;  // outlier channels that keep one sign over all tokens
  double outlier_token_rate = 0.0;   // per-token probability of shrinking or flipping the outliers
  double channel_sigma_spread = 0.0; // log-normal sigma of the ordinary channels' sigma
  double channel_mean_scale = 0.0;   // ordinary channels: mu = channel_mean_scale · sigma · N(0, 1)
};

struct ValueProfile {
  double token_scale_sigma = 0.0;  // log-normal sigma of the per-token scale s_t
  Range student_nu;
  double ar_rho = 0.0;
};

struct QueryProfile {
  double outlier_energy = 0.5;  // fraction of the query's energy along the key mean direction
  DepthRange score_std;         // target std of the logits across keys
};

struct KvProfile {
  std::string name;
  std::string description;
  KeyProfile keys;
  ValueProfile values;
  QueryProfile queries;
  double sink_score_margin = 0.0;  // sink logit above the mean logit, in score std units
  double sink_value_scale = 0.0;   // sink value norm relative to an ordinary token
  double needle_margin = 0.0;      // needle logit above the mean distractor logit, in score std units
};

// The built-in profile, identical to configs/kv_profiles/llama-like.json.
const KvProfile& default_kv_profile();

}  // namespace lynxsim::accuracy
