#pragma once
// Where lynxsim finds its bundled data (models/, configs/, scenarios/): the directory named by
// LYNXSIM_DATA_DIR when set, else the source tree the binary was built from.

#include <filesystem>

namespace lynxsim::app {

struct DataPaths {
  std::filesystem::path root;
  std::filesystem::path models() const { return root / "models"; }
  std::filesystem::path gpus() const { return root / "configs" / "gpus"; }
  std::filesystem::path engines() const { return root / "configs" / "engines"; }
  std::filesystem::path topologies() const { return root / "configs" / "topologies"; }
  // The long natural text of the real-model measurements and benchmarks.
  std::filesystem::path essay_text() const { return root / "data" / "texts" / "kv_essay.txt"; }
  std::filesystem::path acceptance_calibration() const {
    return root / "data" / "calibration" / "smollm2-acceptance.json";
  }
};

DataPaths default_data_paths();

}  // namespace lynxsim::app
