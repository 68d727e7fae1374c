#pragma once
// The precision/accuracy measurement of a list of KV transfer methods for one model geometry and
// context length, with an on-disk cache (`lynxsim accuracy` and the serving model call this).
//
// Sampling (bounded cost, documented in docs/accuracy.md): `sampling.layers` layers evenly spaced
// from the first to the last, `sampling.kv_heads` KV heads evenly spaced in each, and in each sampled
// head `queries_per_head` attention queries at positions stratified over [T/2, T) (decode-like: each
// sees at least half the context) plus `needle_probes` needle queries at the last position. Only the
// sampled heads are generated or read. Heads run in parallel on `threads` threads; results do not
// depend on the thread count (each head has its own random stream and tallies merge in head order).
//
// Source: the synthetic generator with `profile` (default), or the captured tensors of `kv_file`
// (whose geometry must match; its first `context` tokens are used, its queries when it has them and
// context equals its length, synthetic queries along the key mean direction otherwise).
//
// Cache: when cache_dir is not empty, the result is stored as JSON in
// cache_dir/<16 hex digits>.json, the digits being FNV-1a 64 of cache_key(request), which lists every
// input that determines the result (geometry, context, seed, sampling, methods, profile contents,
// KV file path + size + mtime, and kAccuracyCodeVersion). Writes go to a temporary file renamed into
// place, so concurrent runs never see a partial file. A stored file whose key differs is ignored.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/accuracy/accuracy_result.hpp"
#include "sim/accuracy/kv/head_kv.hpp"
#include "sim/accuracy/kv/kv_profile.hpp"
#include "sim/accuracy/methods/measured_methods.hpp"

namespace lynxsim::accuracy {

inline constexpr int kAccuracyCodeVersion = 1;

struct AccuracyRequest {
  KvGeometry geometry;
  int context = 0;
  std::uint64_t seed = 1;
  std::vector<MethodSpec> methods;  // empty = default_methods()
  KvProfile profile = default_kv_profile();
  std::string kv_file;    // empty = synthetic
  std::string cache_dir;  // empty = no cache
  AccuracySampling sampling;
  int threads = 2;
  // Called after each measured (layer, KV head) block with (blocks done, blocks in all), one call
  // at a time from the measuring threads; not part of the cache key (it changes no result).
  std::function<void(std::size_t, std::size_t)> on_block_done;
};


std::string cache_key(const AccuracyRequest& request);

// Measures without touching the cache.
AccuracyResult measure_accuracy(const AccuracyRequest& request);
// Reads the cached result when present, otherwise measures and stores it.
AccuracyResult run_accuracy(const AccuracyRequest& request);

// Sampled layer and KV head indices (evenly spaced, distinct, ascending).
std::vector<int> sample_indices(int total, int count);
// Needle contexts: min, 4·min, 16·min, ... below context, then context (just context if smaller).
std::vector<int> needle_contexts(int context, int min_context);

}  // namespace lynxsim::accuracy
