#include "sim/accuracy/real_model/real_kv_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "sim/accuracy/calibration/real_acceptance_calibration.hpp"
#include "sim/accuracy/kv/synthetic_kv.hpp"
#include "sim/llm/session.hpp"

namespace lynxsim::accuracy {
namespace {

using Channel = std::vector<double>;

double max_of(const std::vector<double>& x) {
  double out = -std::numeric_limits<double>::infinity();
  for (const double v : x) out = std::max(out, v);
  return out;
}

double min_of(const std::vector<double>& x) {
  double out = std::numeric_limits<double>::infinity();
  for (const double v : x) out = std::min(out, v);
  return out;
}

double median(std::vector<double> x) {
  std::nth_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(x.size() / 2), x.end());
  return x[x.size() / 2];
}

Channel column(const float* rows, int tokens, int dim, int c) {
  Channel out(static_cast<std::size_t>(tokens));
  for (int t = 0; t < tokens; ++t) out[static_cast<std::size_t>(t)] = rows[static_cast<std::size_t>(t) * static_cast<std::size_t>(dim) + static_cast<std::size_t>(c)];
  return out;
}

struct Moments {
  double mean = 0.0;
  double var = 0.0;
  double kurtosis = 0.0;  // defined only when varies
  double lag1 = 0.0;      // likewise
  bool varies = false;    // a constant channel has no kurtosis or autocorrelation
};

// Mean of the defined per-channel values; 0 when no channel varies.
struct ChannelMean {
  double sum = 0.0;
  int count = 0;
  void add(double v) {
    sum += v;
    ++count;
  }
  double value() const { return count > 0 ? sum / count : 0.0; }
};

Moments moments(const Channel& x) {
  Moments m;
  const double n = static_cast<double>(x.size());
  for (const double v : x) m.mean += v / n;
  double m4 = 0.0;
  double cov = 0.0;
  for (std::size_t t = 0; t < x.size(); ++t) {
    const double d = x[t] - m.mean;
    m.var += d * d / n;
    m4 += d * d * d * d / n;
    if (t > 0) cov += d * (x[t - 1] - m.mean) / n;
  }
  m.varies = m.var > 0.0;
  if (!m.varies) return m;
  m.kurtosis = m4 / m.var / m.var - 3.0;
  m.lag1 = cov / m.var;
  return m;
}

std::vector<double> row_norms(const float* rows, int tokens, int dim) {
  std::vector<double> out(static_cast<std::size_t>(tokens));
  for (int t = 0; t < tokens; ++t) {
    double s = 0.0;
    for (int c = 0; c < dim; ++c) s += static_cast<double>(rows[static_cast<std::size_t>(t * dim + c)]) * rows[static_cast<std::size_t>(t * dim + c)];
    out[static_cast<std::size_t>(t)] = std::sqrt(s);
  }
  return out;
}

double sink_mass(const KvBlockView& b) {
  double total = 0.0;
  for (const float* q : b.queries) {
    std::vector<double> logits(static_cast<std::size_t>(b.tokens));
    for (int t = 0; t < b.tokens; ++t) {
      double s = 0.0;
      for (int c = 0; c < b.head_dim; ++c) s += static_cast<double>(q[c]) * b.keys[static_cast<std::size_t>(t * b.head_dim + c)];
      logits[static_cast<std::size_t>(t)] = s / std::sqrt(static_cast<double>(b.head_dim));
    }
    const double top = max_of(logits);
    double z = 0.0;
    for (const double l : logits) z += std::exp(l - top);
    total += std::exp(logits[0] - top) / z;
  }
  return b.queries.empty() ? 0.0 : total / static_cast<double>(b.queries.size());
}

std::vector<double> key_statistics(const KvBlockView& b) {
  std::vector<double> rms(static_cast<std::size_t>(b.head_dim));
  std::vector<double> range(rms.size());
  ChannelMean kurtosis;
  ChannelMean lag1;
  for (int c = 0; c < b.head_dim; ++c) {
    const Channel x = column(b.keys, b.tokens, b.head_dim, c);
    const Moments m = moments(x);
    rms[static_cast<std::size_t>(c)] = m.var + m.mean * m.mean;
    range[static_cast<std::size_t>(c)] = max_of(x) - min_of(x);
    if (!m.varies) continue;
    kurtosis.add(m.kurtosis);
    lag1.add(m.lag1);
  }
  std::vector<double> pairs;
  for (int c = 0; c < b.head_dim; ++c) {
    const int partner = b.pair_offset == 1 ? (c ^ 1) : (c + b.pair_offset) % b.head_dim;
    if (partner > c) pairs.push_back(std::sqrt((rms[static_cast<std::size_t>(c)] + rms[static_cast<std::size_t>(partner)]) / 2.0));
  }
  const double pair_median = median(pairs);
  const double outliers = static_cast<double>(std::count_if(pairs.begin(), pairs.end(), [&](double p) { return p > 5.0 * pair_median; }));
  const double max_ratio = max_of(pairs) / pair_median;
  return {outliers, max_ratio, max_of(range) / median(range), kurtosis.value(), lag1.value()};
}

std::vector<double> value_and_sink_statistics(const KvBlockView& b) {
  ChannelMean lag1;
  for (int c = 0; c < b.head_dim; ++c) {
    const Moments m = moments(column(b.values, b.tokens, b.head_dim, c));
    if (m.varies) lag1.add(m.lag1);
  }
  const std::vector<double> v_norms = row_norms(b.values, b.tokens, b.head_dim);
  const std::vector<double> k_norms = row_norms(b.keys, b.tokens, b.head_dim);
  Channel log_norms;
  for (const double n : v_norms) log_norms.push_back(std::log(std::max(n, 1e-30)));
  return {lag1.value(), std::sqrt(moments(log_norms).var), sink_mass(b), k_norms[0] / median(k_norms), v_norms[0] / median(v_norms)};
}

void summarize(const std::vector<std::vector<double>>& blocks, bool real, std::vector<KvStatRow>& rows) {
  for (std::size_t s = 0; s < rows.size(); ++s) {
    double sum = 0.0;
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (const auto& b : blocks) {
      sum += b[s];
      lo = std::min(lo, b[s]);
      hi = std::max(hi, b[s]);
    }
    const double mean = sum / static_cast<double>(blocks.size());
    (real ? rows[s].real_mean : rows[s].synthetic_mean) = mean;
    (real ? rows[s].real_min : rows[s].synthetic_min) = lo;
    (real ? rows[s].real_max : rows[s].synthetic_max) = hi;
  }
}

std::vector<std::vector<double>> real_blocks(const llm::Model& model, std::span<const int> tokens, int threads) {
  llm::Session session(model, {threads, llm::KvPrecision::F32});
  session.prefill(tokens);
  const auto& c = model.config();
  std::vector<std::vector<double>> out;
  for (int l = 0; l < c.n_layers; ++l) {
    const auto queries = session.last_queries(l);
    for (int h = 0; h < c.n_kv_heads; ++h) {
      const int pair_offset = c.is_gemma() ? c.head_dim / 2 : 1;
      KvBlockView b{session.kv().keys(l, h).data(), session.kv().values(l, h).data(), session.position(), c.head_dim,
                    pair_offset, {}};
      for (int g = 0; g < c.group_size(); ++g) b.queries.push_back(queries.data() + static_cast<std::size_t>((h * c.group_size() + g) * c.head_dim));
      out.push_back(block_kv_statistics(b));
    }
  }
  return out;
}

std::vector<std::vector<double>> synthetic_blocks(const KvGeometry& g, const KvProfile& profile, int tokens,
                                                  std::uint64_t seed) {
  std::vector<std::vector<double>> out;
  for (int l = 0; l < g.num_layers; ++l) {
    for (int h = 0; h < g.num_kv_heads; ++h) {
      const HeadKv head = generate_synthetic_head(g, profile, l, h, tokens, {tokens - 1}, seed);
      out.push_back(block_kv_statistics(KvBlockView{head.keys.data(), head.values.data(), tokens, g.head_dim,
                                                    g.head_dim / 2, {head.query(0)}}));
    }
  }
  return out;
}

}  // namespace

const std::vector<std::string>& kv_statistic_names() {
  static const std::vector<std::string> names = {
      "outlier_pairs",  "max_pair_ratio",    "key_range_ratio", "key_kurtosis",   "key_locality",
      "value_locality", "value_scale_sigma", "sink_attention",  "sink_key_ratio", "sink_value_ratio"};
  return names;
}

std::vector<double> block_kv_statistics(const KvBlockView& block) {
  if (block.tokens < 3 || block.head_dim < 2) throw std::invalid_argument("kv statistics: block too small");
  std::vector<double> out = key_statistics(block);
  const std::vector<double> more = value_and_sink_statistics(block);
  out.insert(out.end(), more.begin(), more.end());
  return out;
}

KvStatistics real_kv_statistics(const llm::Model& model, std::span<const int> tokens, const KvProfile& profile,
                                int threads, std::uint64_t seed) {
  KvStatistics out{static_cast<int>(tokens.size()), profile.name, {}};
  for (const auto& name : kv_statistic_names()) out.rows.push_back(KvStatRow{name});
  summarize(real_blocks(model, tokens, threads), true, out.rows);
  summarize(synthetic_blocks(geometry_of(model.config(), "smollm2-135m"), profile, out.tokens, seed), false, out.rows);
  return out;
}

std::string render_kv_statistics(const KvStatistics& s) {
  char line[200];
  std::snprintf(line, sizeof line, "K/V statistics over every (layer, KV head), %d tokens: real vs synthetic (%s)\n%-18s%10s%10s%10s%12s%10s%10s\n",
                s.tokens, s.profile.c_str(), "statistic", "real mean", "min", "max", "synth mean", "min", "max");
  std::string out = line;
  for (const auto& r : s.rows) {
    std::snprintf(line, sizeof line, "%-18s%10.3f%10.3f%10.3f%12.3f%10.3f%10.3f\n", r.name.c_str(), r.real_mean,
                  r.real_min, r.real_max, r.synthetic_mean, r.synthetic_min, r.synthetic_max);
    out += line;
  }
  return out;
}

}  // namespace lynxsim::accuracy
