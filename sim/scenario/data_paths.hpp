#pragma once
// Where lynxsim finds its bundled data (models/, configs/, data/) and keeps its cache: the one
// resolver of input paths. The application sets root from `--data-dir` (default: the source tree
// the binary was built from) and cache from `--cache-dir`; without the flag a scenario's
// "cache_dir" key, else default_cache_dir() (sim/core/cache_dir.hpp), names the cache.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lynxsim::scenario {

struct DataPaths {
  std::filesystem::path root;
  std::optional<std::filesystem::path> cache;  // set by --cache-dir

  static DataPaths from_root(const std::filesystem::path& root) { return {root, std::nullopt}; }

  std::filesystem::path models() const { return root / "models"; }
  std::filesystem::path gpus() const { return root / "configs" / "gpus"; }
  std::filesystem::path engines() const { return root / "configs" / "engines"; }
  std::filesystem::path topologies() const { return root / "configs" / "topologies"; }
  // Synthetic-KV profiles (accuracy.profile names one: <name>.json).
  std::filesystem::path kv_profiles() const { return root / "configs" / "kv_profiles"; }
  // The long natural text of the real-model measurements and benchmarks.
  std::filesystem::path essay_text() const { return root / "data" / "texts" / "kv_essay.txt"; }
  // The committed acceptance calibration measured on real model `model` (smollm2-135m:
  // data/calibration/smollm2-acceptance.json, gemma3-270m: gemma3-acceptance.json).
  std::filesystem::path acceptance_calibration(const std::string& model = "smollm2-135m") const {
    return root / "data" / "calibration" / (model.substr(0, model.find('-')) + "-acceptance.json");
  }
  // Every real model's calibration file, in a fixed order (present or not).
  std::vector<std::filesystem::path> acceptance_calibrations() const {
    return {acceptance_calibration("smollm2-135m"), acceptance_calibration("gemma3-270m")};
  }
  // The cache folder: --cache-dir, else default_cache_dir().
  std::filesystem::path cache_dir() const;
  std::filesystem::path accuracy_cache() const { return cache_dir() / "accuracy"; }
};

}  // namespace lynxsim::scenario
