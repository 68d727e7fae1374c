#pragma once
// The precision/accuracy measurement of a list of KV transfer methods for one model geometry and
// context length (`lynxsim accuracy` and the serving model call this, through the store layer's
// cache, sim/store/accuracy_cache.hpp).
//
// Sampling (bounded cost, documented in docs/accuracy.md): `sampling.layers` layers evenly spaced
// from the first to the last, `sampling.kv_heads` KV heads evenly spaced in each, and in each sampled
// head `queries_per_head` attention queries at positions stratified over [T/2, T) (decode-like: each
// sees at least half the context) plus `needle_probes` needle queries at the last position. Only the
// sampled heads are generated or read. Heads run in parallel on `threads` threads; results do not
// depend on the thread count (each head has its own random stream and tallies merge in head order).
//
// Source: the synthetic generator with `profile` (default), or captured tensors `kv_file`
// (kv_tensors.hpp; whose geometry must match; its first `context` tokens are used, its queries when it
// has them and context equals its length, synthetic queries along the key mean direction otherwise).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/accuracy/accuracy_result.hpp"
#include "sim/accuracy/kv/head_kv.hpp"
#include "sim/accuracy/kv/kv_profile.hpp"
#include "sim/accuracy/kv/kv_tensors.hpp"
#include "sim/accuracy/kv/layer_profiles.hpp"
#include "sim/accuracy/methods/measured_methods.hpp"

namespace lynxsim::accuracy {

inline constexpr int kAccuracyCodeVersion = 1;

struct AccuracyRequest {
  KvGeometry geometry;
  int context = 0;
  std::uint64_t seed = 1;
  std::vector<MethodSpec> methods;  // empty = default_methods()
  KvProfile profile = default_kv_profile();
  LayerProfiles layer_profiles = default_layer_profiles();
  std::shared_ptr<const KvTensors> kv_file;  // null = synthetic
  AccuracySampling sampling;
  int threads = 2;
  // Called after each measured (layer, KV head) block with (blocks done, blocks in all), one call
  // at a time from the measuring threads; it changes no result.
  std::function<void(std::size_t, std::size_t)> on_block_done;
};

AccuracyResult measure_accuracy(const AccuracyRequest& request);

// Sampled layer and KV head indices (evenly spaced, distinct, ascending).
std::vector<int> sample_indices(int total, int count);

// The acceptance proxy of a model whose `linear_layers` of `num_layers` layers keep a state: the
// attention layers' agreement and the states' agreement, weighted by the layers of each kind.
double pooled_acceptance(double attention, double state, int linear_layers, int num_layers);
// Needle contexts: min, 4·min, 16·min, ... below context, then context (just context if smaller).
std::vector<int> needle_contexts(int context, int min_context);

}  // namespace lynxsim::accuracy
