#pragma once
// Reading the lengths of an empirical length distribution (serving/length_distribution.hpp).

#include <filesystem>
#include <vector>

namespace lynxsim::scenario {

// Reads one length per line (blank lines and lines starting with '#' skipped); a line that is not
// a positive integer throws std::runtime_error naming the file and line number.
std::vector<int> read_length_file(const std::filesystem::path& file);

}  // namespace lynxsim::scenario
