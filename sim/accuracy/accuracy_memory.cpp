#include "sim/accuracy/accuracy_memory.hpp"

#include <algorithm>

#include "sim/core/saturating.hpp"

namespace lynxsim::accuracy {

std::int64_t accuracy_memory_bytes(const AccuracyRequest& request) {
  const KvGeometry& g = request.geometry;
  const auto layers = static_cast<std::int64_t>(sample_indices(std::max(1, g.num_layers), request.sampling.layers).size());
  const auto heads = static_cast<std::int64_t>(sample_indices(std::max(1, g.num_kv_heads), request.sampling.kv_heads).size());
  const std::int64_t threads = std::clamp<std::int64_t>(request.threads, 1, std::max<std::int64_t>(1, layers * heads));
  const std::int64_t values = saturating_mul(saturating_mul(std::max(0, request.context), std::max(1, g.kv_tensors)),
                                             std::max(1, g.head_dim));
  const std::int64_t per_thread = saturating_mul(values, kAccuracyBytesPerValue);
  return saturating_add(kAccuracyMemoryBaseBytes, saturating_mul(threads, per_thread));
}

}  // namespace lynxsim::accuracy
