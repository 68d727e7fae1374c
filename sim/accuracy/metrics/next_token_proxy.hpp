#pragma once
// A next-token proxy for the agreement of two attention outputs, and so for the acceptance
// probability of speculative decoding.
//
// A fixed random readout W ([vocab][head_dim], entries N(0, 1), drawn from a seed) maps an attention
// output o to logits W·o; the proxy token is argmax_v (W·o)_v. Two KV versions agree on a query when
// they give the same proxy token. For Lynx, the fraction of sampled queries on which the anchor-only
// KV and the full KV agree is the per-token acceptance probability of a draft token.
//
// Why it is only a proxy: a real model mixes all heads of all layers through trained projections and
// an MLP before its LM head, so errors add up across layers and are filtered by learned weights; a
// random readout of one head has top-1/top-2 gaps of roughly ‖o‖/sqrt(2 ln vocab), which sets how
// large an output error flips the token. It ranks methods correctly (a smaller output error always
// means more agreement) but its absolute level needs calibration against a real model's drafts.

#include <cstdint>
#include <span>
#include <vector>

namespace lynxsim::accuracy {

class NextTokenProxy {
public:
  NextTokenProxy(int vocab, int head_dim, std::uint64_t seed);
  int token(std::span<const double> output) const;
  int vocab() const { return vocab_; }

private:
  int vocab_ = 0;
  int head_dim_ = 0;
  std::vector<float> weights_;
};

}  // namespace lynxsim::accuracy
