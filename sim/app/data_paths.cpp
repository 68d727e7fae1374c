#include "sim/app/data_paths.hpp"

#include "sim/app/input_errors.hpp"
#include "sim/report/output_path.hpp"

namespace lynxsim::app {

DataPaths resolve_data_paths(const std::optional<std::filesystem::path>& data_dir,
                             const std::optional<std::filesystem::path>& cache_dir) {
  if (data_dir && data_dir->empty()) throw InputError("--data-dir: an empty path names no folder");
  if (cache_dir) report::check_output_path(*cache_dir, "--cache-dir");
  return {data_dir.value_or(LYNXSIM_DEFAULT_DATA_DIR), cache_dir};
}

}  // namespace lynxsim::app
