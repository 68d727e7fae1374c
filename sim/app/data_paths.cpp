#include "sim/app/data_paths.hpp"

namespace lynxsim::app {

DataPaths resolve_data_paths(const std::optional<std::filesystem::path>& data_dir,
                             const std::optional<std::filesystem::path>& cache_dir) {
  return {data_dir.value_or(LYNXSIM_DEFAULT_DATA_DIR), cache_dir};
}

}  // namespace lynxsim::app
