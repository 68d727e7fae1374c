#include "sim/app/memory_limit.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sim/app/input_errors.hpp"
#include "sim/core/unit_parse.hpp"

namespace lynxsim::app {

std::int64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return INT64_MAX;
  return static_cast<std::int64_t>(pages) * page_size;
}

std::int64_t default_memory_limit_bytes() {
  std::int64_t limit = physical_memory_bytes();
  rlimit address_space{};
  if (::getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY) {
    limit = std::min(limit, static_cast<std::int64_t>(std::min<rlim_t>(address_space.rlim_cur, INT64_MAX)));
  }
  return limit;
}

std::int64_t memory_limit_bytes(const std::optional<std::string>& option) {
  if (!option) return default_memory_limit_bytes();
  std::int64_t bytes = 0;
  try {
    bytes = parse_bytes(*option).value;
  } catch (const std::exception& e) {
    throw InputError(fmt::format("--memory-limit {}: {}", *option, e.what()));
  }
  if (bytes <= 0) throw InputError(fmt::format("--memory-limit {}: expected a positive size like \"16GiB\"", *option));
  return bytes;
}

std::string format_memory(std::int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  auto value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(units)) {
    value /= 1024.0;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.3g} {}", value, units[unit]);
}

std::string memory_excess(std::int64_t estimate, std::int64_t limit, const std::optional<std::string>& option) {
  if (option) {
    return fmt::format("an estimated {} of memory, more than --memory-limit {}", format_memory(estimate),
                       format_memory(limit));
  }
  return fmt::format("an estimated {} of memory, more than this machine's {} (its memory or ulimit -v; "
                     "--memory-limit)",
                     format_memory(estimate), format_memory(limit));
}

}  // namespace lynxsim::app
