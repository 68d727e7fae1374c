#include "sim/core/cache_dir.hpp"

#include <cstdlib>

namespace lynxsim {

std::filesystem::path default_cache_dir() {
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".cache" / "lynxsim";
  }
  return std::filesystem::path(".cache") / "lynxsim";
}

}  // namespace lynxsim
