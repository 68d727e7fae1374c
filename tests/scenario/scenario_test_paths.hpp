#pragma once
// Paths of the scenario test data, from the CMake-provided source and binary dirs.

#include <filesystem>

#include "sim/scenario/scenario.hpp"

namespace lynxsim::scenario::testing {

inline std::filesystem::path source_dir() { return LYNXSIM_SOURCE_DIR; }
inline std::filesystem::path bad_dir() { return source_dir() / "tests" / "scenario" / "bad"; }
inline DataPaths data_paths() { return DataPaths::from_root(source_dir()); }
inline ParseOptions parse_options() { return {data_paths(), source_dir() / "scenarios"}; }

}  // namespace lynxsim::scenario::testing
