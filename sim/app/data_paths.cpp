#include "sim/app/data_paths.hpp"

#include <cstdlib>

namespace lynxsim::app {

DataPaths default_data_paths() {
  if (const char* env = std::getenv("LYNXSIM_DATA_DIR"); env != nullptr && *env != '\0') {
    return {env};
  }
  return {LYNXSIM_DEFAULT_DATA_DIR};
}

}  // namespace lynxsim::app
