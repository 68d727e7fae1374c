#include "sim/accuracy/metrics/attention_math.hpp"

#include "sim/accuracy/metrics/dot_product.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace lynxsim::accuracy {
namespace {

std::vector<int> top_indices(std::span<const float> x, int k) {
  std::vector<int> idx(x.size());
  std::iota(idx.begin(), idx.end(), 0);
  const auto better = [&x](int a, int b) {
    const auto sa = x[static_cast<std::size_t>(a)];
    const auto sb = x[static_cast<std::size_t>(b)];
    return sa > sb || (sa == sb && a < b);
  };
  std::nth_element(idx.begin(), idx.begin() + (k - 1), idx.end(), better);
  idx.resize(static_cast<std::size_t>(k));
  std::sort(idx.begin(), idx.end());
  return idx;
}

}  // namespace

void attention_logits(const float* keys, int head_dim, int count, const float* query, std::vector<float>& logits) {
  logits.resize(static_cast<std::size_t>(count));
  const float scale = 1.0F / std::sqrt(static_cast<float>(head_dim));
  for (int t = 0; t < count; ++t) {
    const float* k = keys + static_cast<std::size_t>(t) * static_cast<std::size_t>(head_dim);
    logits[static_cast<std::size_t>(t)] = dot_product(query, k, head_dim) * scale;
  }
}

double log_sum_exp(std::span<const float> logits) {
  if (logits.empty()) throw std::invalid_argument("log_sum_exp of nothing");
  const double peak = *std::max_element(logits.begin(), logits.end());
  double sum = 0.0;
  for (const float s : logits) sum += std::exp(s - peak);
  return peak + std::log(sum);
}

std::vector<double> softmax(std::span<const float> logits) {
  const double lse = log_sum_exp(logits);
  std::vector<double> p(logits.size());
  for (std::size_t t = 0; t < p.size(); ++t) p[t] = std::exp(logits[t] - lse);
  return p;
}

std::vector<double> attention_output(const float* values, int head_dim, std::span<const double> probabilities) {
  const auto d = static_cast<std::size_t>(head_dim);
  std::vector<double> out(d, 0.0);
  std::vector<float> chunk(d);
  constexpr std::size_t kChunk = 256;
  for (std::size_t start = 0; start < probabilities.size(); start += kChunk) {
    std::fill(chunk.begin(), chunk.end(), 0.0F);
    const std::size_t stop = std::min(probabilities.size(), start + kChunk);
    for (std::size_t t = start; t < stop; ++t) {
      const auto p = static_cast<float>(probabilities[t]);
      const float* v = values + t * d;
      for (std::size_t c = 0; c < d; ++c) chunk[c] += p * v[c];
    }
    for (std::size_t c = 0; c < d; ++c) out[c] += chunk[c];
  }
  return out;
}

double kl_divergence_from_logits(std::span<const float> reference, std::span<const float> approx) {
  if (reference.size() != approx.size()) throw std::invalid_argument("KL: logit counts differ");
  const double lse_ref = log_sum_exp(reference);
  const double lse_approx = log_sum_exp(approx);
  double sum = 0.0;
  for (std::size_t t = 0; t < reference.size(); ++t) {
    sum += std::exp(reference[t] - lse_ref) * (static_cast<double>(reference[t]) - approx[t]);
  }
  return std::max(0.0, sum - lse_ref + lse_approx);
}

double topk_recall(std::span<const float> reference, std::span<const float> approx, int k) {
  if (reference.size() != approx.size() || reference.empty()) throw std::invalid_argument("top-k: bad logit counts");
  k = std::min(k, static_cast<int>(reference.size()));
  if (k <= 0) throw std::invalid_argument("top-k: k must be positive");
  const std::vector<int> a = top_indices(reference, k);
  const std::vector<int> b = top_indices(approx, k);
  std::vector<int> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  return static_cast<double>(common.size()) / k;
}

double relative_error(std::span<const double> reference, std::span<const double> approx) {
  if (reference.size() != approx.size()) throw std::invalid_argument("relative error: sizes differ");
  double err = 0.0;
  double norm = 0.0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    err += (reference[i] - approx[i]) * (reference[i] - approx[i]);
    norm += reference[i] * reference[i];
  }
  return norm > 0.0 ? std::sqrt(err / norm) : std::sqrt(err);
}

int argmax(std::span<const float> values, int begin, int end) {
  if (begin < 0 || end > static_cast<int>(values.size()) || begin >= end) throw std::invalid_argument("argmax: bad range");
  return static_cast<int>(std::max_element(values.begin() + begin, values.begin() + end) - values.begin());
}

}  // namespace lynxsim::accuracy
