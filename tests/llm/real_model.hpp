#pragma once
// Access to SmolLM2-135M-Instruct for the tests that need the real model. The model is loaded
// once per test binary; when it is absent, real_model() returns nullptr and the caller skips with
// the message from missing_model_message() (which says to run scripts/fetch_model.sh).

#include <doctest/doctest.h>

#include <memory>

#include "sim/llm/model.hpp"
#include "sim/llm/model_path.hpp"

namespace lynxsim::llm::test {

inline const Model* real_model() {
  static const std::unique_ptr<Model> model = [] {
    const auto path = find_default_model();
    return path ? std::make_unique<Model>(Model::load(*path)) : std::unique_ptr<Model>();
  }();
  if (!model) {
    MESSAGE("skipped: " << missing_model_message());
  }
  return model.get();
}

}  // namespace lynxsim::llm::test
