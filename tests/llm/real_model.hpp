#pragma once
// Access to SmolLM2-135M-Instruct (in the default cache folder) for the tests that need the real
// model. The model is loaded
// once per test binary; when it is absent, real_model() returns nullptr and the caller skips with
// the message from missing_model_message(default_cache_dir()) (which says to run scripts/fetch_model.sh).

#include <doctest/doctest.h>

#include <memory>

#include "sim/core/cache_dir.hpp"
#include "sim/llm/model.hpp"
#include "sim/llm/model_path.hpp"

namespace lynxsim::llm::test {

inline const Model* real_model() {
  static const std::unique_ptr<Model> model = [] {
    const auto path = find_model(default_cache_dir());
    return path ? std::make_unique<Model>(Model::load(*path)) : std::unique_ptr<Model>();
  }();
  if (!model) {
    MESSAGE("skipped: " << missing_model_message(default_cache_dir()));
  }
  return model.get();
}

// Gemma 3 270M (scripts/fetch_model.sh gemma3-270m), loaded once; nullptr (with a skip message)
// when absent.
inline const Model* gemma_model() {
  static const std::unique_ptr<Model> model = [] {
    const auto path = find_model(default_cache_dir(), kGemma3);
    return path ? std::make_unique<Model>(Model::load(*path)) : std::unique_ptr<Model>();
  }();
  if (!model) {
    MESSAGE("skipped: " << missing_model_message(default_cache_dir(), kGemma3));
  }
  return model.get();
}

}  // namespace lynxsim::llm::test
