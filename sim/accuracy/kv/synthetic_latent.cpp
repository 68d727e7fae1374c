#include "sim/accuracy/kv/synthetic_latent.hpp"

#include <cmath>
#include <stdexcept>

#include "sim/accuracy/accuracy_rng.hpp"
#include "sim/accuracy/kv/query_model.hpp"
#include "sim/accuracy/kv/synthetic_kv.hpp"

namespace lynxsim::accuracy {
namespace {

struct LatentChannels {
  std::vector<double> mu;
  std::vector<double> sigma;
  std::vector<double> gain;
};

LatentChannels draw_channels(AccuracyRng& rng, const KeyProfile& keys, const LatentProfile& latent, int rank) {
  LatentChannels ch;
  for (int c = 0; c < rank; ++c) {
    const double sigma = rng.lognormal(0.0, keys.channel_sigma_spread);
    ch.sigma.push_back(sigma);
    ch.mu.push_back(keys.channel_mean_scale * sigma * rng.normal());
    ch.gain.push_back(rng.lognormal(0.0, latent.gain_spread));
  }
  return ch;
}

void normalize_row(const std::vector<double>& x, const std::vector<double>& gain, float* out) {
  double sum = 0.0;
  for (const double v : x) sum += v * v;
  const double inv_rms = 1.0 / std::sqrt(sum / static_cast<double>(x.size()));
  for (std::size_t c = 0; c < x.size(); ++c) out[c] = static_cast<float>(gain[c] * x[c] * inv_rms);
}

void add_queries(HeadKv& block, const KvProfile& profile, double depth, std::uint64_t seed) {
  AccuracyRng rng(derive_seed(seed, "latent-queries", block.layer, 0));
  const Range spread = profile.queries.score_std.at(depth);
  const QueryModelParams params{profile.queries.outlier_energy, rng.uniform(spread.lo, spread.hi)};
  const std::vector<float> direction = key_mean_direction(block);
  for (const int p : block.query_positions) {
    if (p < 1 || p >= block.tokens) throw std::invalid_argument("latent query position out of range");
    const std::vector<float> q = make_query(block, direction, p, params, rng);
    block.queries.insert(block.queries.end(), q.begin(), q.end());
  }
}

}  // namespace

std::vector<float> synthetic_ckv(const KeyProfile& keys, const LatentProfile& latent, int rank, int tokens,
                                 std::uint64_t stream_seed) {
  AccuracyRng rng(stream_seed);
  const LatentChannels ch = draw_channels(rng, keys, latent, rank);
  const double rho = rng.uniform(keys.ar_rho.lo, keys.ar_rho.hi);
  const double nu = rng.uniform(keys.student_nu.lo, keys.student_nu.hi);
  const double innovation = std::sqrt(1.0 - rho * rho);
  std::vector<double> z(static_cast<std::size_t>(rank));
  for (double& v : z) v = rng.student_t_unit(nu);
  std::vector<double> x(z.size());
  std::vector<float> out(static_cast<std::size_t>(rank) * static_cast<std::size_t>(tokens));
  for (int t = 0; t < tokens; ++t) {
    for (std::size_t c = 0; c < z.size(); ++c) {
      if (t > 0) z[c] = rho * z[c] + innovation * rng.student_t_unit(nu);
      x[c] = ch.mu[c] + ch.sigma[c] * z[c];
    }
    normalize_row(x, ch.gain, out.data() + static_cast<std::size_t>(t) * z.size());
  }
  return out;
}

void zero_rope_part(std::vector<float>& values, int head_dim, int rope_dim) {
  for (std::size_t row = 0; row + static_cast<std::size_t>(head_dim) <= values.size(); row += static_cast<std::size_t>(head_dim)) {
    for (int c = head_dim - rope_dim; c < head_dim; ++c) values[row + static_cast<std::size_t>(c)] = 0.0F;
  }
}

HeadKv generate_synthetic_latent(const KvGeometry& g, const KvProfile& profile, const LatentProfile& latent,
                                 int layer, int tokens, const std::vector<int>& query_positions, std::uint64_t seed) {
  if (!g.latent()) throw std::invalid_argument("synthetic latent: the geometry of " + g.model + " is not MLA");
  const int rope = g.latent_rope_dim;
  const int rank = g.head_dim - rope;
  KvGeometry pe_geometry{g.model, g.num_layers, 1, 1, rope, g.rope_theta};
  KvProfile pe_profile = profile;
  pe_profile.sink_score_margin = latent.sink_score_margin;
  const HeadKv pe = generate_synthetic_head(pe_geometry, pe_profile, layer, 0, tokens, query_positions, seed);
  const std::vector<float> ckv =
      synthetic_ckv(profile.keys, latent, rank, tokens, derive_seed(seed, "latent-ckv", layer, 0));
  HeadKv block;
  block.layer = layer;
  block.tokens = tokens;
  block.head_dim = g.head_dim;
  block.query_positions = query_positions;
  block.keys.resize(static_cast<std::size_t>(tokens) * static_cast<std::size_t>(g.head_dim));
  for (int t = 0; t < tokens; ++t) {
    float* row = block.keys.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(g.head_dim);
    for (int c = 0; c < rank; ++c) row[c] = ckv[static_cast<std::size_t>(t) * static_cast<std::size_t>(rank) + static_cast<std::size_t>(c)];
    for (int c = 0; c < rope; ++c) row[rank + c] = static_cast<float>(latent.rope_scale) * pe.key(t)[c];
  }
  block.values = block.keys;
  zero_rope_part(block.values, g.head_dim, rope);
  add_queries(block, profile, layer_depth(layer, g.num_layers), seed);
  return block;
}

}  // namespace lynxsim::accuracy
