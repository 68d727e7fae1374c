#include <doctest/doctest.h>

#include "sim/accuracy/accuracy_memory.hpp"

using namespace lynxsim::accuracy;

namespace {

AccuracyRequest llama_like(int context, int threads) {
  AccuracyRequest r;
  r.geometry.num_layers = 32;
  r.geometry.num_kv_heads = 8;
  r.geometry.num_heads = 32;
  r.geometry.head_dim = 128;
  r.context = context;
  r.threads = threads;
  return r;
}

}  // namespace

TEST_CASE("the accuracy memory model is base + busy threads x tokens x values per token x 12 bytes") {
  const std::int64_t per_thread = std::int64_t{1048576} * 2 * 128 * kAccuracyBytesPerValue;
  CHECK(accuracy_memory_bytes(llama_like(1048576, 1)) == kAccuracyMemoryBaseBytes + per_thread);
  CHECK(accuracy_memory_bytes(llama_like(1048576, 2)) == kAccuracyMemoryBaseBytes + 2 * per_thread);
  // 4 sampled layers x 2 sampled KV heads: at most 8 threads are busy.
  CHECK(accuracy_memory_bytes(llama_like(1048576, 64)) == kAccuracyMemoryBaseBytes + 8 * per_thread);
  AccuracyRequest one_head = llama_like(1048576, 64);
  one_head.geometry.num_kv_heads = 1;
  CHECK(accuracy_memory_bytes(one_head) == kAccuracyMemoryBaseBytes + 4 * per_thread);
}
