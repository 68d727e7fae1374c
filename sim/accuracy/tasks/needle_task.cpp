#include "sim/accuracy/tasks/needle_task.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/accuracy/metrics/attention_math.hpp"
#include "sim/accuracy/kv/query_model.hpp"

namespace lynxsim::accuracy {
namespace {

std::vector<bool> content_channels(const HeadKv& block) {
  const auto d = static_cast<std::size_t>(block.head_dim);
  std::vector<double> sum(d, 0.0);
  std::vector<double> sum_sq(d, 0.0);
  const int stride = std::max(1, block.tokens / 4096);
  int count = 0;
  for (int t = 1; t < block.tokens; t += stride, ++count) {
    const float* k = block.key(t);
    for (std::size_t c = 0; c < d; ++c) {
      sum[c] += k[c];
      sum_sq[c] += static_cast<double>(k[c]) * k[c];
    }
  }
  std::vector<double> var(d);
  for (std::size_t c = 0; c < d; ++c) var[c] = sum_sq[c] / count - (sum[c] / count) * (sum[c] / count);
  std::vector<double> sorted = var;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(d / 2), sorted.end());
  const double median = sorted[d / 2];
  std::vector<bool> out(d);
  for (std::size_t c = 0; c < d; ++c) out[c] = var[c] <= median;
  return out;
}

double dot(std::span<const float> a, const float* b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += static_cast<double>(a[i]) * b[i];
  return sum;
}

}  // namespace

NeedleProbe make_needle_probe(const HeadKv& block, std::span<const float> base_query, AccuracyRng& rng) {
  const std::vector<bool> content = content_channels(block);
  NeedleProbe probe;
  probe.direction.assign(content.size(), 0.0F);
  double norm = 0.0;
  for (std::size_t c = 0; c < content.size(); ++c) {
    const double x = content[c] ? rng.normal() : 0.0;
    probe.direction[c] = static_cast<float>(x);
    norm += x * x;
  }
  for (float& x : probe.direction) x = static_cast<float>(x / std::sqrt(norm));
  const int last = block.tokens - 1;
  const double base_std = logit_stats(block, base_query, last).stddev;
  const double needle_std = logit_stats(block, probe.direction, last).stddev;
  const double weight = needle_std > 0.0 ? base_std / needle_std : 1.0;
  probe.query.resize(content.size());
  for (std::size_t c = 0; c < content.size(); ++c) {
    probe.query[c] = static_cast<float>(base_query[c] + weight * probe.direction[c]);
  }
  return probe;
}

std::vector<NeedleCase> plan_needle_cases(std::span<const float> source_logits, const NeedleProbe& probe,
                                          const std::vector<int>& contexts, const std::vector<double>& depths,
                                          double margin) {
  const double gain_per_unit = dot(probe.query, probe.direction.data()) / std::sqrt(static_cast<double>(probe.query.size()));
  if (!(gain_per_unit > 0.0)) throw std::invalid_argument("needle probe: query does not point along its needle");
  const std::size_t n_all = source_logits.size();
  if (n_all < 4) throw std::invalid_argument("needle: context too short");
  double sum = 0.0;
  double sum_sq = 0.0;
  for (std::size_t t = 1; t < n_all; ++t) {
    sum += source_logits[t];
    sum_sq += static_cast<double>(source_logits[t]) * source_logits[t];
  }
  const double mean = sum / static_cast<double>(n_all - 1);
  const double stddev = std::sqrt(std::max(0.0, sum_sq / static_cast<double>(n_all - 1) - mean * mean));
  const double target = mean + margin * stddev;
  std::vector<NeedleCase> cases;
  for (const int n : contexts) {
    if (n < 4 || n > static_cast<int>(n_all)) throw std::invalid_argument("needle: bad context");
    for (const double f : depths) {
      const int p = 1 + static_cast<int>(std::floor(f * (n - 2)));
      cases.push_back(NeedleCase{n, p, (target - source_logits[static_cast<std::size_t>(p)]) / gain_per_unit});
    }
  }
  return cases;
}

int count_needles_found(const MethodSpec& method, const CodecTarget& target, NeedleKeys source,
                        std::span<const float> reconstructed, const NeedleProbe& probe,
                        std::span<const NeedleCase> cases) {
  if (cases.empty()) return 0;
  const int n = cases.front().context;
  const int d = source.head_dim;
  std::vector<float> logits;
  attention_logits(reconstructed.data(), d, n, probe.query.data(), logits);
  const quant::BlockView block(std::span<const float>(source.keys.data(), static_cast<std::size_t>(n) * static_cast<std::size_t>(d)), n, d);
  int found = 0;
  std::vector<float> region;
  std::vector<float> region_logits;
  for (const NeedleCase& c : cases) {
    const auto [begin, end] = group_rows(method, target.kind, n, c.position);
    float* row = source.keys.data() + static_cast<std::size_t>(c.position) * static_cast<std::size_t>(d);
    const std::vector<float> saved(row, row + d);
    for (int ch = 0; ch < d; ++ch) row[ch] = static_cast<float>(row[ch] + c.gain * probe.direction[static_cast<std::size_t>(ch)]);
    region.resize(static_cast<std::size_t>(end - begin) * static_cast<std::size_t>(d));
    reconstruct_rows(method, target, block, begin, end, region.data());
    std::copy(saved.begin(), saved.end(), row);
    attention_logits(region.data(), d, end - begin, probe.query.data(), region_logits);
    const float needle = region_logits[static_cast<std::size_t>(c.position - begin)];
    bool wins = true;
    for (int t = 1; t < n && wins; ++t) {
      const float s = (t >= begin && t < end) ? region_logits[static_cast<std::size_t>(t - begin)] : logits[static_cast<std::size_t>(t)];
      if (t != c.position && s >= needle) wins = false;
    }
    found += wins ? 1 : 0;
  }
  return found;
}

}  // namespace lynxsim::accuracy
