#pragma once
// Reading an input file (scenario, card, topology, trace, length distribution) with the checks a
// tool that reads user-named paths needs: the path must name a regular file (a FIFO, a device such
// as /dev/zero, a socket or a directory is refused before it is opened, so reading never blocks or
// runs forever), and its size must not exceed `max_bytes` (checked before reading and again while
// reading, so a file that grows is cut off too). Failures throw InputFileError whose message names
// the file and the reason (the system's errno text where there is one).

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace lynxsim::scenario {

class InputFileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Limits of the files lynxsim reads (documented in docs/scenario.md).
inline constexpr std::uint64_t kMaxConfigFileBytes = 64ull << 20;
inline constexpr std::uint64_t kMaxTraceFileBytes = 2ull << 30;

std::string read_input_file(const std::filesystem::path& file, std::uint64_t max_bytes);

}  // namespace lynxsim::scenario
