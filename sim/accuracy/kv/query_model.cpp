#include "sim/accuracy/kv/query_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lynxsim::accuracy {
namespace {

double dot(const float* a, const float* b, int n) {
  float sum = 0.0F;
  for (int i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

void normalize(std::vector<double>& v) {
  double norm = 0.0;
  for (const double x : v) norm += x * x;
  norm = std::sqrt(norm);
  if (norm > 0.0) {
    for (double& x : v) x /= norm;
  }
}

}  // namespace

LogitStats logit_stats(const HeadKv& block, std::span<const float> query, int last) {
  if (last < 1) throw std::invalid_argument("logit_stats: a query needs at least one ordinary key");
  const int count = std::min(last, 512);
  const double scale = 1.0 / std::sqrt(static_cast<double>(block.head_dim));
  double sum = 0.0;
  double sum_sq = 0.0;
  for (int i = 0; i < count; ++i) {
    const int t = 1 + static_cast<int>(static_cast<long long>(i) * last / count);
    const double s = dot(query.data(), block.key(t), block.head_dim) * scale;
    sum += s;
    sum_sq += s * s;
  }
  const double mean = sum / count;
  return LogitStats{mean, std::sqrt(std::max(0.0, sum_sq / count - mean * mean))};
}

std::vector<float> make_query(const HeadKv& block, std::span<const float> direction, int position,
                              const QueryModelParams& params, AccuracyRng& rng) {
  const int d = block.head_dim;
  std::vector<double> noise(static_cast<std::size_t>(d));
  for (double& x : noise) x = rng.normal();
  normalize(noise);
  const double a = std::sqrt(params.outlier_energy);
  const double b = std::sqrt(1.0 - params.outlier_energy);
  std::vector<float> query(static_cast<std::size_t>(d));
  for (std::size_t c = 0; c < query.size(); ++c) query[c] = static_cast<float>(a * direction[c] + b * noise[c]);
  const LogitStats stats = logit_stats(block, query, position);
  const double gain = stats.stddev > 0.0 ? params.score_std / stats.stddev : 1.0;
  for (float& x : query) x = static_cast<float>(x * gain);
  return query;
}

void place_sink(HeadKv& block, std::span<const float> direction0, double margin) {
  const int d = block.head_dim;
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  double sum_mu = 0.0;
  double sum_b = 0.0;
  for (int i = 0; i < block.num_queries(); ++i) {
    const std::span<const float> q(block.query(i), static_cast<std::size_t>(d));
    const LogitStats stats = logit_stats(block, q, block.query_positions[static_cast<std::size_t>(i)]);
    if (stats.stddev <= 0.0) continue;
    sum_mu += stats.mean / stats.stddev;
    sum_b += dot(q.data(), direction0.data(), d) * scale / stats.stddev;
  }
  const int n = block.num_queries();
  if (n == 0 || !(std::abs(sum_b) > 0.0)) return;
  const double c = (margin + sum_mu / n) / (sum_b / n);
  for (int ch = 0; ch < d; ++ch) block.keys[static_cast<std::size_t>(ch)] = static_cast<float>(c * direction0[ch]);
}

std::vector<float> key_mean_direction(const HeadKv& block) {
  std::vector<double> mean(static_cast<std::size_t>(block.head_dim), 0.0);
  for (int t = 1; t < block.tokens; ++t) {
    const float* k = block.key(t);
    for (std::size_t c = 0; c < mean.size(); ++c) mean[c] += k[c];
  }
  normalize(mean);
  return std::vector<float>(mean.begin(), mean.end());
}

}  // namespace lynxsim::accuracy
