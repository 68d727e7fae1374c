#pragma once
// The data and cache folders of a command: `--data-dir` (default: the source tree the binary was
// built from) and `--cache-dir` (scenario/data_paths.hpp). No environment variable changes them.

#include <filesystem>
#include <optional>

#include "sim/scenario/data_paths.hpp"

namespace lynxsim::app {

using scenario::DataPaths;

DataPaths resolve_data_paths(const std::optional<std::filesystem::path>& data_dir,
                             const std::optional<std::filesystem::path>& cache_dir);

}  // namespace lynxsim::app
