#pragma once
// Shared fixtures of the accuracy tests: a small Llama-like geometry and scratch directories under
// the build tree.

#include <filesystem>
#include <string>

#include "sim/accuracy/kv/head_kv.hpp"

namespace lynxsim::accuracy::testing {

inline KvGeometry small_geometry() { return KvGeometry{"test-model", 4, 2, 8, 128, 500000.0}; }

inline std::string scratch_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(LYNXSIM_BINARY_DIR) / "test_accuracy" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace lynxsim::accuracy::testing
