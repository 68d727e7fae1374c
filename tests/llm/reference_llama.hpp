#pragma once
// A direct, loop-by-loop Llama forward pass in double precision over a whole token sequence, used
// as the reference for the tiny-model tests. It recomputes everything from the weights for every
// position (no cache, no batching) and applies RoPE to adjacent channel pairs.

#include <cmath>
#include <vector>

#include "tiny_gguf.hpp"

namespace lynxsim::llm::test {

using Vec = std::vector<double>;

inline Vec matvec(const std::vector<float>& w, const Vec& x, std::size_t rows) {
  Vec y(rows, 0.0);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < x.size(); ++c) {
      y[r] += static_cast<double>(w[r * x.size() + c]) * x[c];
    }
  }
  return y;
}

inline Vec rms_norm(const Vec& x, const std::vector<float>& w, double eps) {
  double ms = 0.0;
  for (const double v : x) {
    ms += v * v;
  }
  const double scale = 1.0 / std::sqrt(ms / static_cast<double>(x.size()) + eps);
  Vec y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    y[i] = x[i] * scale * w[i];
  }
  return y;
}

inline void rope(Vec& x, int head_dim, double theta, int position) {
  for (std::size_t h = 0; h < x.size() / static_cast<std::size_t>(head_dim); ++h) {
    for (int i = 0; i < head_dim / 2; ++i) {
      const double angle = position * std::pow(theta, -2.0 * i / head_dim);
      double& a = x[h * static_cast<std::size_t>(head_dim) + 2 * static_cast<std::size_t>(i)];
      double& b = x[h * static_cast<std::size_t>(head_dim) + 2 * static_cast<std::size_t>(i) + 1];
      const double a0 = a;
      a = a0 * std::cos(angle) - b * std::sin(angle);
      b = a0 * std::sin(angle) + b * std::cos(angle);
    }
  }
}

struct ReferenceKv {
  std::vector<std::vector<Vec>> k;  // [layer][position] -> kv_dim
  std::vector<std::vector<Vec>> v;
};

inline Vec attend(const TinyConfig& c, const Vec& q, const std::vector<Vec>& ks,
                  const std::vector<Vec>& vs) {
  const int hd = c.n_embd / c.n_heads;
  Vec out(static_cast<std::size_t>(c.n_embd), 0.0);
  for (int h = 0; h < c.n_heads; ++h) {
    const int g = h / (c.n_heads / c.n_kv_heads);
    Vec s(ks.size());
    double peak = -1e300;
    for (std::size_t j = 0; j < ks.size(); ++j) {
      s[j] = 0.0;
      for (int d = 0; d < hd; ++d) {
        s[j] +=
            q[static_cast<std::size_t>(h * hd + d)] * ks[j][static_cast<std::size_t>(g * hd + d)];
      }
      s[j] /= std::sqrt(static_cast<double>(hd));
      peak = std::max(peak, s[j]);
    }
    double sum = 0.0;
    for (double& v : s) {
      v = std::exp(v - peak);
      sum += v;
    }
    for (std::size_t j = 0; j < ks.size(); ++j) {
      for (int d = 0; d < hd; ++d) {
        out[static_cast<std::size_t>(h * hd + d)] +=
            s[j] / sum * vs[j][static_cast<std::size_t>(g * hd + d)];
      }
    }
  }
  return out;
}

inline Vec reference_block(const TinyModel& m, int l, int pos, const Vec& x, ReferenceKv& kv) {
  const TinyConfig& c = m.config;
  const TinyLayer& L = m.layers[static_cast<std::size_t>(l)];
  const auto d = static_cast<std::size_t>(c.n_embd);
  const std::size_t kvd = d / static_cast<std::size_t>(c.n_heads) * c.n_kv_heads;
  const int hd = c.n_embd / c.n_heads;
  const Vec h = rms_norm(x, L.attn_norm, c.eps);
  Vec q = matvec(L.wq, h, d);
  Vec k = matvec(L.wk, h, kvd);
  rope(q, hd, c.theta, pos);
  rope(k, hd, c.theta, pos);
  kv.k[static_cast<std::size_t>(l)].push_back(k);
  kv.v[static_cast<std::size_t>(l)].push_back(matvec(L.wv, h, kvd));
  const Vec o = matvec(
      L.wo, attend(c, q, kv.k[static_cast<std::size_t>(l)], kv.v[static_cast<std::size_t>(l)]), d);
  Vec y = x;
  for (std::size_t i = 0; i < d; ++i) {
    y[i] += o[i];
  }
  const Vec h2 = rms_norm(y, L.ffn_norm, c.eps);
  Vec g = matvec(L.w_gate, h2, static_cast<std::size_t>(c.n_ff));
  const Vec u = matvec(L.w_up, h2, static_cast<std::size_t>(c.n_ff));
  for (std::size_t i = 0; i < g.size(); ++i) {
    g[i] = g[i] / (1.0 + std::exp(-g[i])) * u[i];
  }
  const Vec down = matvec(L.w_down, g, d);
  for (std::size_t i = 0; i < d; ++i) {
    y[i] += down[i];
  }
  return y;
}

// Logits after every token: [position][vocab].
inline std::vector<Vec> reference_logits(const TinyModel& m, const std::vector<int>& tokens) {
  const TinyConfig& c = m.config;
  const auto d = static_cast<std::size_t>(c.n_embd);
  ReferenceKv kv{std::vector<std::vector<Vec>>(static_cast<std::size_t>(c.n_layers)),
                 std::vector<std::vector<Vec>>(static_cast<std::size_t>(c.n_layers))};
  std::vector<Vec> out;
  for (std::size_t p = 0; p < tokens.size(); ++p) {
    Vec x(d);
    for (std::size_t i = 0; i < d; ++i) {
      x[i] = m.token_embd[static_cast<std::size_t>(tokens[p]) * d + i];
    }
    for (int l = 0; l < c.n_layers; ++l) {
      x = reference_block(m, l, static_cast<int>(p), x, kv);
    }
    out.push_back(
        matvec(m.token_embd, rms_norm(x, m.output_norm, c.eps), static_cast<std::size_t>(c.vocab)));
  }
  return out;
}

}  // namespace lynxsim::llm::test
