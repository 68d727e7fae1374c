#pragma once
// Shared fixtures of the accuracy tests: a small Llama-like geometry, a quick precision request on
// it and scratch directories under the build tree.

#include <filesystem>
#include <string>

#include "sim/accuracy/accuracy_run.hpp"
#include "sim/accuracy/kv/head_kv.hpp"

namespace lynxsim::accuracy::testing {

inline KvGeometry small_geometry() { return KvGeometry{"test-model", 4, 2, 8, 128, 500000.0}; }

// Two sampled layers and KV heads of small_geometry() at 8K tokens, seed 3.
inline AccuracyRequest small_request() {
  AccuracyRequest r;
  r.geometry = small_geometry();
  r.context = 8192;
  r.seed = 3;
  r.sampling.layers = 2;
  r.sampling.kv_heads = 2;
  return r;
}

inline std::string scratch_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(LYNXSIM_BINARY_DIR) / "test_accuracy" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace lynxsim::accuracy::testing
