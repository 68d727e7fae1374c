#pragma once
// Where the sampled (layer, KV head) blocks come from: the synthetic generator or a captured file.
//
// Query positions of a head (both sources): queries_per_head attention queries stratified over
// [T/2, T) (stratum i covers [T/2 + i·T/(2Q), T/2 + (i+1)·T/(2Q)), one uniform draw inside), then
// needle_probes needle queries at position T − 1.
// File source: the first T = context tokens of the head are read. When the file has queries and T is
// its full length, the attention queries are taken evenly from the captured queries of the query heads
// that share this KV head (their own positions), the needle bases from the last captured position;
// otherwise queries are synthesized along the key mean direction (query_model.hpp) with the
// profile's logit spread. No sink is inserted into captured keys: a real model has its own.
// Layer kinds (synthetic source): a sliding-window layer's block holds its last min(T, W) tokens,
// its queries are stratified over the second half of them and it has no needle queries (a needle
// farther back than W is out of its reach by design); an MLA model's blocks are its latents
// (synthetic_latent.hpp).


#include "sim/accuracy/accuracy_run.hpp"
#include "sim/accuracy/kv/kv_tensors.hpp"

namespace lynxsim::accuracy {

class HeadSource {
public:
  explicit HeadSource(const AccuracyRequest& request);
  HeadKv head(int layer, int kv_head) const;
  // Tokens a layer attends: min(context, W) for a sliding-window layer, the context otherwise.
  int tokens(int layer) const;

private:
  HeadKv file_head(int layer, int kv_head) const;
  std::vector<int> positions(int layer, int kv_head) const;

  const AccuracyRequest& request_;
  const KvTensors* file_ = nullptr;
};

}  // namespace lynxsim::accuracy
