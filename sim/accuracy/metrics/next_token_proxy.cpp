#include "sim/accuracy/metrics/next_token_proxy.hpp"

#include <stdexcept>

#include "sim/accuracy/accuracy_rng.hpp"
#include "sim/accuracy/metrics/dot_product.hpp"

namespace lynxsim::accuracy {

NextTokenProxy::NextTokenProxy(int vocab, int head_dim, std::uint64_t seed) : vocab_(vocab), head_dim_(head_dim) {
  if (vocab < 2 || head_dim <= 0) throw std::invalid_argument("next-token proxy: need vocab >= 2 and head_dim > 0");
  AccuracyRng rng(derive_seed(seed, "next-token-proxy", vocab, head_dim));
  weights_.resize(static_cast<std::size_t>(vocab) * static_cast<std::size_t>(head_dim));
  for (float& w : weights_) w = static_cast<float>(rng.normal());
}

int NextTokenProxy::token(std::span<const double> output) const {
  if (static_cast<int>(output.size()) != head_dim_) throw std::invalid_argument("next-token proxy: wrong output size");
  std::vector<float> o(output.begin(), output.end());
  int best = 0;
  float best_logit = 0.0F;
  for (int v = 0; v < vocab_; ++v) {
    const float* w = weights_.data() + static_cast<std::size_t>(v) * static_cast<std::size_t>(head_dim_);
    const float logit = dot_product(w, o.data(), head_dim_);
    if (v == 0 || logit > best_logit) {
      best = v;
      best_logit = logit;
    }
  }
  return best;
}

}  // namespace lynxsim::accuracy
