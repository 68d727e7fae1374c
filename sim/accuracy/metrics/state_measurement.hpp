#pragma once
// Every measurement on one sampled state share of a linear-attention layer, for every method
// variant (accuracy_result.hpp defines the metrics; delta_state.hpp the recurrence).
//
// A share is what one KV head's rank sends of the layer's state (kv_bytes.hpp): `heads` value heads,
// each a dk x dv float32 state after `tokens` tokens of synthetic input, flattened head after head
// into one row that each method quantizes as it sends it (one "token" of heads·dk·dv channels,
// groups of group_size along it, or the whole row with group_size 0; KIVI keeps a single row in
// bf16; the convolution state is not measured). Then, per variant:
//   - state error energies of the row;
//   - per head and unit query q: ‖Sᵀq − Ŝᵀq‖ / ‖Sᵀq‖, and the next-token proxy's token of Ŝᵀq
//     (next_token_proxy.hpp, a readout as wide as dv), so that an anchored state's drafts count
//     in the acceptance proxy as attention outputs do;
//   - the recurrence continues from S and from Ŝ with the same next tokens; at each checkpoint of
//     profile.continue_steps the state error energies and the readout error again.
// Cost: O(heads·(tokens + n)·dk·dv) for the reference, O(heads·n·dk·dv) per variant.

#include <cstdint>
#include <vector>

#include "sim/accuracy/kv/layer_profiles.hpp"
#include "sim/accuracy/metrics/head_measurement.hpp"
#include "sim/accuracy/metrics/next_token_proxy.hpp"
#include "sim/accuracy/metrics/precision_metrics.hpp"

namespace lynxsim::accuracy {

struct StateTally {
  ErrorAccumulator state;
  double readout_sum = 0.0;
  int readouts = 0;
  std::vector<ErrorAccumulator> continued_state;  // per checkpoint
  std::vector<double> continued_readout_sum;      // per checkpoint
  std::vector<int> tokens;                        // proxy token per readout query, in order

  void merge(const StateTally& other);
};

struct StateShare {
  int layer = 0;
  int share = 0;
  int heads = 0;
  int dk = 0;
  int dv = 0;
  int tokens = 0;
  int num_layers = 1;
  std::uint64_t seed = 0;
};

// `proxy` reads vectors of share.dv values.
std::vector<StateTally> measure_state_share(const StateShare& share, const StateProfile& profile,
                                            const std::vector<MethodVariant>& variants,
                                            const NextTokenProxy& proxy);

}  // namespace lynxsim::accuracy
