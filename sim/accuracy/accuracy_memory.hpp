#pragma once
// The peak memory of the precision measurement (accuracy_run.hpp), estimated before it starts, so
// that `lynxsim accuracy` and a scenario run refuse a context this machine cannot hold.
//
// Each measuring thread holds one sampled (layer, KV head) block of T tokens at a time: its source
// keys and values, the reconstruction of the method being measured, its quantized planes and the
// attention logits of a query, about three float copies of each of the block's kv_tensors tensors
// of T x head_dim values (12 bytes per value). Threads beyond the sampled blocks stay idle:
//   bytes = 64 MiB + min(threads, layers sampled x KV heads sampled) x T x kv_tensors x head_dim x 12
// Measured (llama-3.1-8b, head_dim 128, 2 threads; maximum RSS of /usr/bin/time -v): 327 MB at
// 65,536 tokens and 1,416 MB at 262,144, i.e. 2,835 bytes per token and thread, the model 3,072.

#include <cstdint>

#include "sim/accuracy/accuracy_run.hpp"

namespace lynxsim::accuracy {

inline constexpr std::int64_t kAccuracyMemoryBaseBytes = std::int64_t{64} << 20;
inline constexpr std::int64_t kAccuracyBytesPerValue = 12;

// The model above for `request` (its geometry, context, sampling and threads); saturates.
std::int64_t accuracy_memory_bytes(const AccuracyRequest& request);

}  // namespace lynxsim::accuracy
