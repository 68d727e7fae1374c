#pragma once
// The memory a command may use, and its refusal beyond it.
//
// --memory-limit takes a byte size ("16GiB", "512MiB"); without it the limit is this machine's
// physical memory, sysconf(_SC_PHYS_PAGES) x sysconf(_SC_PAGE_SIZE), or the process's address-space
// limit (RLIMIT_AS, `ulimit -v`) when that is lower. The estimates it is compared
// with are models of the peak resident set (scenario/memory_estimate.hpp for a run,
// accuracy/accuracy_memory.hpp for the precision measurement).

#include <cstdint>
#include <optional>
#include <string>

namespace lynxsim::app {

std::int64_t physical_memory_bytes();
// The smaller of physical memory and RLIMIT_AS.
std::int64_t default_memory_limit_bytes();
// The limit of a --memory-limit value (absent: the default above); InputError naming --memory-limit
// for a value that is not a positive byte size.
std::int64_t memory_limit_bytes(const std::optional<std::string>& option);
// "1.25 GiB" (binary units, three significant digits).
std::string format_memory(std::int64_t bytes);
// "an estimated 20.3 GiB of memory, more than --memory-limit 16 GiB" (or "more than this
// machine's 23.5 GiB (--memory-limit)" without the option).
std::string memory_excess(std::int64_t estimate, std::int64_t limit, const std::optional<std::string>& option);

}  // namespace lynxsim::app
