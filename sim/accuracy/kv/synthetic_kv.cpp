#include "sim/accuracy/kv/synthetic_kv.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/accuracy/accuracy_rng.hpp"
#include "sim/accuracy/kv/query_model.hpp"
#include "sim/accuracy/kv/rope.hpp"

namespace lynxsim::accuracy {
namespace {

struct KeyChannels {
  std::vector<double> mu;
  std::vector<double> sigma;
  std::vector<int> outliers;
};

double draw(AccuracyRng& rng, const Range& r) { return rng.uniform(r.lo, r.hi); }

// Unit-variance Student-t innovations drawn from a table of 2^16 exact draws made for this block,
// picked by 16-bit slices of the generator's output (four per 64-bit draw).
class StudentTable {
public:
  StudentTable(AccuracyRng& rng, double nu) : rng_(rng), values_(1U << 16U) {
    for (double& v : values_) v = rng.student_t_unit(nu);
  }
  double next() {
    if (left_ == 0) {
      bits_ = rng_.next_u64();
      left_ = 4;
    }
    const double v = values_[bits_ & 0xFFFFU];
    bits_ >>= 16U;
    --left_;
    return v;
  }

private:
  AccuracyRng& rng_;
  std::vector<double> values_;
  std::uint64_t bits_ = 0;
  int left_ = 0;
};

std::vector<int> pick_outlier_channels(AccuracyRng& rng, int count, int d) {
  std::vector<int> slow;
  for (int i = d / 4; i < d / 2; ++i) {
    slow.push_back(i);
    slow.push_back(i + d / 2);
  }
  count = std::min(count, static_cast<int>(slow.size()));
  for (int i = 0; i < count; ++i) {
    const int j = i + rng.uniform_int(static_cast<int>(slow.size()) - i);
    std::swap(slow[static_cast<std::size_t>(i)], slow[static_cast<std::size_t>(j)]);
  }
  slow.resize(static_cast<std::size_t>(count));
  return slow;
}

KeyChannels draw_key_channels(AccuracyRng& rng, const KeyProfile& p, double depth, int d) {
  KeyChannels ch;
  ch.mu.resize(static_cast<std::size_t>(d));
  ch.sigma.resize(static_cast<std::size_t>(d));
  for (int c = 0; c < d; ++c) {
    ch.sigma[static_cast<std::size_t>(c)] = rng.lognormal(0.0, p.channel_sigma_spread);
    ch.mu[static_cast<std::size_t>(c)] = p.channel_mean_scale * ch.sigma[static_cast<std::size_t>(c)] * rng.normal();
  }
  const int count = static_cast<int>(std::lround(draw(rng, p.outlier_channels)));
  ch.outliers = pick_outlier_channels(rng, count, d);
  const Range scale_range = p.outlier_scale.at(depth);
  for (const int c : ch.outliers) {
    const double scale = draw(rng, scale_range);
    const double sign = rng.uniform01() < 0.5 ? -1.0 : 1.0;
    const bool fixed = rng.uniform01() < p.fixed_sign_fraction;
    ch.mu[static_cast<std::size_t>(c)] = sign * scale * (fixed ? 1.0 : rng.uniform(0.2, 1.0));
    ch.sigma[static_cast<std::size_t>(c)] = scale * (fixed ? 0.25 : rng.uniform(0.5, 1.0));
  }
  return ch;
}

void fill_keys(HeadKv& block, const KeyChannels& ch, const KeyProfile& p, AccuracyRng& rng) {
  const int d = block.head_dim;
  const double rho = draw(rng, p.ar_rho);
  StudentTable tail(rng, draw(rng, p.student_nu));
  const double innovation = std::sqrt(1.0 - rho * rho);
  std::vector<double> z(static_cast<std::size_t>(d));
  for (double& x : z) x = tail.next();
  for (int t = 0; t < block.tokens; ++t) {
    float* k = block.keys.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(d);
    for (int c = 0; c < d; ++c) {
      auto& zc = z[static_cast<std::size_t>(c)];
      if (t > 0) zc = rho * zc + innovation * tail.next();
      k[c] = static_cast<float>(ch.mu[static_cast<std::size_t>(c)] + ch.sigma[static_cast<std::size_t>(c)] * zc);
    }
    if (rng.uniform01() < p.outlier_token_rate) {
      const float factor = rng.uniform01() < 0.5 ? -1.0F : 0.1F;
      for (const int c : ch.outliers) k[c] *= factor;
    }
  }
}

void fill_values(HeadKv& block, const ValueProfile& p, AccuracyRng& rng) {
  const int d = block.head_dim;
  StudentTable tail(rng, draw(rng, p.student_nu));
  const double innovation = std::sqrt(1.0 - p.ar_rho * p.ar_rho);
  std::vector<double> g(static_cast<std::size_t>(d));
  for (double& x : g) x = tail.next();
  for (int t = 0; t < block.tokens; ++t) {
    float* v = block.values.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(d);
    const double scale = rng.lognormal(0.0, p.token_scale_sigma);
    for (int c = 0; c < d; ++c) {
      auto& gc = g[static_cast<std::size_t>(c)];
      if (t > 0) gc = p.ar_rho * gc + innovation * tail.next();
      v[c] = static_cast<float>(scale * gc);
    }
  }
}

std::vector<float> unit_direction_at(const std::vector<double>& mu, int position, double theta) {
  std::vector<float> dir(mu.begin(), mu.end());
  apply_rope(dir.data(), 1, static_cast<int>(dir.size()), position, theta);
  double norm = 0.0;
  for (const float x : dir) norm += static_cast<double>(x) * x;
  norm = std::sqrt(norm);
  for (float& x : dir) x = static_cast<float>(norm > 0.0 ? x / norm : 0.0);
  return dir;
}

void add_queries(HeadKv& block, const KeyChannels& ch, const KvGeometry& g, const QueryModelParams& params,
                 AccuracyRng& rng) {
  const auto d = static_cast<std::size_t>(block.head_dim);
  block.queries.assign(block.query_positions.size() * d, 0.0F);
  for (std::size_t i = 0; i < block.query_positions.size(); ++i) {
    const int position = block.query_positions[i];
    if (position < 1 || position >= block.tokens) throw std::invalid_argument("query position out of range");
    const std::vector<float> dir = unit_direction_at(ch.mu, position, g.rope_theta);
    const std::vector<float> q = make_query(block, dir, position, params, rng);
    std::copy(q.begin(), q.end(), block.queries.begin() + static_cast<std::ptrdiff_t>(i * d));
  }
}

}  // namespace

double layer_depth(int layer, int num_layers) {
  return num_layers <= 1 ? 0.0 : static_cast<double>(layer) / (num_layers - 1);
}

HeadKv generate_synthetic_head(const KvGeometry& geometry, const KvProfile& profile, int layer, int kv_head,
                               int tokens, const std::vector<int>& query_positions, std::uint64_t seed) {
  geometry.validate();
  if (layer < 0 || layer >= geometry.num_layers || kv_head < 0 || kv_head >= geometry.num_kv_heads) {
    throw std::invalid_argument("synthetic KV: layer or KV head out of range");
  }
  if (tokens < 2) throw std::invalid_argument("synthetic KV: need at least 2 tokens");
  HeadKv block;
  block.layer = layer;
  block.kv_head = kv_head;
  block.tokens = tokens;
  block.head_dim = geometry.head_dim;
  const std::size_t n = static_cast<std::size_t>(tokens) * static_cast<std::size_t>(geometry.head_dim);
  block.keys.resize(n);
  block.values.resize(n);
  block.query_positions = query_positions;
  const double depth = layer_depth(layer, geometry.num_layers);
  AccuracyRng key_rng(derive_seed(seed, "synthetic-keys", layer, kv_head));
  const KeyChannels channels = draw_key_channels(key_rng, profile.keys, depth, geometry.head_dim);
  fill_keys(block, channels, profile.keys, key_rng);
  apply_rope(block.keys.data(), tokens, geometry.head_dim, 0, geometry.rope_theta);
  AccuracyRng value_rng(derive_seed(seed, "synthetic-values", layer, kv_head));
  fill_values(block, profile.values, value_rng);
  for (int c = 0; c < geometry.head_dim; ++c) block.values[static_cast<std::size_t>(c)] *= static_cast<float>(profile.sink_value_scale);
  AccuracyRng query_rng(derive_seed(seed, "synthetic-queries", layer, kv_head));
  const QueryModelParams params{profile.queries.outlier_energy, draw(query_rng, profile.queries.score_std.at(depth))};
  add_queries(block, channels, geometry, params, query_rng);
  place_sink(block, unit_direction_at(channels.mu, 0, geometry.rope_theta), profile.sink_score_margin);
  return block;
}

}  // namespace lynxsim::accuracy
