#pragma once
// Synthetic attention queries and the attention sink.
//
// A query at position p is q = a · u_p + b · n, with u_p the unit key mean direction as seen from p,
// n a random unit Gaussian direction, a² = outlier_energy and b² = 1 − a² (so queries correlate with
// the key outlier channels, which dominate the mean). q is then scaled so that the logits
// q·k_t / sqrt(d) over the keys it sees (t in [1, p], at most 512 evenly strided keys, sink
// excluded) have standard deviation score_std. With the sink excluded the scaling does not depend on
// the sink's own key.
//
// The sink key is c · u_0; c solves mean_i[(c·b_i − mu_i) / sigma_i] = margin over the sampled
// queries i, where b_i = q_i·u_0/sqrt(d) and mu_i, sigma_i are the mean and standard deviation of
// their logits over ordinary keys. The sink thus draws attention e^(margin·sigma) times that of an
// average token.

#include <span>
#include <vector>

#include "sim/accuracy/accuracy_rng.hpp"
#include "sim/accuracy/kv/head_kv.hpp"

namespace lynxsim::accuracy {

struct QueryModelParams {
  double outlier_energy = 0.5;
  double score_std = 2.0;
};

// Mean and standard deviation of q·k_t/sqrt(d) over at most 512 keys strided over [1, last].
struct LogitStats {
  double mean = 0.0;
  double stddev = 0.0;
};
LogitStats logit_stats(const HeadKv& block, std::span<const float> query, int last);

std::vector<float> make_query(const HeadKv& block, std::span<const float> direction, int position,
                              const QueryModelParams& params, AccuracyRng& rng);

// Overwrites key 0 with the sink described above; `direction0` is u_0 (unit).
void place_sink(HeadKv& block, std::span<const float> direction0, double margin);

// Unit vector along the mean of keys [1, T) (the direction used when keys come from a file).
std::vector<float> key_mean_direction(const HeadKv& block);

}  // namespace lynxsim::accuracy
