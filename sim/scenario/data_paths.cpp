#include "sim/scenario/data_paths.hpp"

#include "sim/core/cache_dir.hpp"

namespace lynxsim::scenario {

std::filesystem::path DataPaths::cache_dir() const { return cache.value_or(default_cache_dir()); }

}  // namespace lynxsim::scenario
