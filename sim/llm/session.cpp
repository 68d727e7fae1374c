#include "sim/llm/session.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "sim/llm/attention.hpp"
#include "sim/llm/dequantize.hpp"
#include "sim/llm/tensor_ops.hpp"

namespace lynxsim::llm {
namespace {

constexpr int prefill_chunk = 512;
constexpr int score_chunk = 256;

void check_tokens(std::span<const int> tokens, int vocab_size) {
  for (const int t : tokens) {
    if (t < 0 || t >= vocab_size) {
      throw std::invalid_argument("token id " + std::to_string(t) +
                                  " is outside the vocabulary [0, " + std::to_string(vocab_size) +
                                  ")");
    }
  }
}

float stored(float value, KvPrecision precision) {
  return precision == KvPrecision::Bf16 ? bf16_to_float(float_to_bf16(value)) : value;
}

// x += out, or x += norm(out) when the block has a post-norm (Gemma).
void add_residual(RowMatrix& x, const RowMatrix& out, const Eigen::VectorXf& post_norm,
                  double eps) {
  if (post_norm.size() == 0) {
    x += out;
    return;
  }
  RowMatrix normed;
  rms_norm_rows(out, post_norm, eps, normed);
  x += normed;
}

void score_row(std::span<const float> logits, int target, TokenScores& out) {
  const auto peak = *std::max_element(logits.begin(), logits.end());
  double sum = 0.0;
  for (const float v : logits) {
    sum += std::exp(static_cast<double>(v) - peak);
  }
  out.predicted.push_back(argmax(logits));
  out.log_prob.push_back(static_cast<double>(logits[static_cast<std::size_t>(target)]) - peak -
                         std::log(sum));
}

}  // namespace

Session::Session(const Model& model, SessionOptions options)
    : model_(&model),
      options_(options),
      pool_(std::make_unique<ThreadPool>(options.n_threads)),
      cache_(model.config().n_layers, model.config().n_kv_heads, model.config().head_dim),
      last_queries_(static_cast<std::size_t>(model.config().n_layers)) {}

Session::Session(const Session& other)
    : model_(other.model_),
      options_(other.options_),
      pool_(std::make_unique<ThreadPool>(other.options_.n_threads)),
      cache_(other.cache_),
      last_logits_(other.last_logits_),
      last_queries_(other.last_queries_) {}

Session& Session::operator=(const Session& other) {
  if (this != &other) {
    Session copy(other);
    *this = std::move(copy);
  }
  return *this;
}

void Session::reset() { rewind(0); }

void Session::rewind(int position) {
  cache_.truncate(position);
  last_logits_.clear();
  for (auto& q : last_queries_) {
    q.clear();
  }
}

std::span<const float> Session::last_queries(int layer) const {
  return last_queries_.at(static_cast<std::size_t>(layer));
}

void Session::store_kv(int layer, int first_position, const RowMatrix& k, const RowMatrix& v) {
  const int hd = model_->config().head_dim;
  for (int g = 0; g < cache_.n_kv_heads(); ++g) {
    const auto keys = cache_.keys(layer, g);
    const auto values = cache_.values(layer, g);
    for (Eigen::Index t = 0; t < k.rows(); ++t) {
      const std::size_t base = static_cast<std::size_t>(first_position + t) * hd;
      for (int d = 0; d < hd; ++d) {
        keys[base + d] = stored(k(t, g * hd + d), options_.kv_precision);
        values[base + d] = stored(v(t, g * hd + d), options_.kv_precision);
      }
    }
  }
}

void Session::run_layer(int layer, int first_position, RowMatrix& x) {
  const LlamaConfig& c = model_->config();
  const LayerWeights& w = model_->layer(layer);
  const bool gemma = c.is_gemma();
  const RopeLayout rope = gemma ? RopeLayout::Halves : RopeLayout::AdjacentPairs;
  RowMatrix h, q, k, v, a, proj;
  rms_norm_rows(x, w.attn_norm, c.rms_eps, h);
  linear(*pool_, h, w.wq, q);
  linear(*pool_, h, w.wk, k);
  linear(*pool_, h, w.wv, v);
  if (gemma) {
    rms_norm_heads(q, w.q_norm, c.rms_eps);
    rms_norm_heads(k, w.k_norm, c.rms_eps);
  }
  apply_rope(q, c.head_dim, c.layer_rope_theta(layer), first_position, rope);
  apply_rope(k, c.head_dim, c.layer_rope_theta(layer), first_position, rope);
  store_kv(layer, first_position, k, v);
  const auto last = q.row(q.rows() - 1);
  last_queries_[static_cast<std::size_t>(layer)].assign(last.data(), last.data() + last.size());
  causal_attention(*pool_, {&c, &cache_, layer, first_position}, q, a);
  linear(*pool_, a, w.wo, proj);
  add_residual(x, proj, w.post_attn_norm, c.rms_eps);
  rms_norm_rows(x, w.ffn_norm, c.rms_eps, h);
  RowMatrix gate, up;
  linear(*pool_, h, w.w_gate, gate);
  linear(*pool_, h, w.w_up, up);
  if (gemma) {
    gelu_tanh_mul(gate, up);
  } else {
    silu_mul(gate, up);
  }
  linear(*pool_, gate, w.w_down, proj);
  add_residual(x, proj, w.post_ffn_norm, c.rms_eps);
}

void Session::run_layers(std::span<const int> tokens, RowMatrix& x) {
  const LlamaConfig& c = model_->config();
  check_tokens(tokens, c.vocab_size);
  if (cache_.size() + static_cast<int>(tokens.size()) > c.context_length) {
    throw std::invalid_argument("sequence of " + std::to_string(cache_.size() + tokens.size()) +
                                " tokens exceeds the model's context of " +
                                std::to_string(c.context_length));
  }
  x.resize(static_cast<Eigen::Index>(tokens.size()), c.n_embd);
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    x.row(static_cast<Eigen::Index>(t)) = model_->token_embedding().row(tokens[t]);
  }
  if (c.is_gemma()) {
    x *= std::sqrt(static_cast<float>(c.n_embd));
  }
  const int first_position = cache_.extend(static_cast<int>(tokens.size()));
  try {
    for (int l = 0; l < c.n_layers; ++l) {
      run_layer(l, first_position, x);
    }
  } catch (...) {
    cache_.truncate(first_position);
    throw;
  }
}

RowMatrix Session::logits_of(const RowMatrix& hidden_rows) {
  RowMatrix normed, logits;
  rms_norm_rows(hidden_rows, model_->output_norm(), model_->config().rms_eps, normed);
  linear(*pool_, normed, model_->output_head(), logits);
  return logits;
}

const std::vector<float>& Session::prefill(std::span<const int> tokens) {
  if (tokens.empty()) {
    throw std::invalid_argument("prefill needs at least one token");
  }
  RowMatrix x;
  for (std::size_t start = 0; start < tokens.size(); start += prefill_chunk) {
    run_layers(tokens.subspan(start, std::min<std::size_t>(prefill_chunk, tokens.size() - start)),
               x);
  }
  const RowMatrix logits = logits_of(x.bottomRows(1));
  last_logits_.assign(logits.data(), logits.data() + logits.size());
  return last_logits_;
}

const std::vector<float>& Session::decode_step(int token) {
  return prefill(std::span<const int>(&token, 1));
}

RowMatrix Session::forward(std::span<const int> tokens) {
  RowMatrix out(static_cast<Eigen::Index>(tokens.size()), model_->config().vocab_size);
  RowMatrix x;
  for (std::size_t start = 0; start < tokens.size(); start += prefill_chunk) {
    const std::size_t count = std::min<std::size_t>(prefill_chunk, tokens.size() - start);
    run_layers(tokens.subspan(start, count), x);
    out.middleRows(static_cast<Eigen::Index>(start), static_cast<Eigen::Index>(count)) =
        logits_of(x);
  }
  if (out.rows() > 0) {
    const auto last = out.row(out.rows() - 1);
    last_logits_.assign(last.data(), last.data() + last.size());
  }
  return out;
}

TokenScores Session::score(std::span<const int> tokens) {
  TokenScores out;
  for (std::size_t start = 0; start < tokens.size(); start += score_chunk) {
    const auto chunk =
        tokens.subspan(start, std::min<std::size_t>(score_chunk, tokens.size() - start));
    check_tokens(chunk, model_->config().vocab_size);
    const std::vector<float> before = last_logits_;
    const RowMatrix logits = forward(chunk);
    for (std::size_t i = 0; i < chunk.size(); ++i) {
      if (i == 0 && before.empty()) {
        out.predicted.push_back(-1);
        out.log_prob.push_back(std::numeric_limits<double>::quiet_NaN());
        continue;
      }
      const float* row =
          i == 0 ? before.data() : logits.row(static_cast<Eigen::Index>(i) - 1).data();
      score_row({row, static_cast<std::size_t>(logits.cols())}, chunk[i], out);
    }
  }
  return out;
}

std::vector<int> Session::generate_greedy(int n_tokens, std::optional<int> stop_token) {
  if (last_logits_.empty()) {
    throw std::logic_error("generate_greedy needs logits: prefill a prompt first");
  }
  std::vector<int> out;
  for (int k = 0; k < n_tokens; ++k) {
    const int next = argmax(last_logits_);
    out.push_back(next);
    decode_step(next);
    if (stop_token && next == *stop_token) {
      break;
    }
  }
  return out;
}

int argmax(std::span<const float> logits) {
  if (logits.empty()) {
    throw std::invalid_argument("argmax of an empty logit vector");
  }
  return static_cast<int>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

double perplexity(const TokenScores& scores) {
  double sum = 0.0;
  int count = 0;
  for (const double lp : scores.log_prob) {
    if (!std::isnan(lp)) {
      sum += lp;
      ++count;
    }
  }
  if (count == 0) {
    throw std::invalid_argument("perplexity: no scored token");
  }
  return std::exp(-sum / count);
}

}  // namespace lynxsim::llm
