#include "sim/scenario/length_file.hpp"

#include <charconv>
#include <fmt/format.h>
#include <sstream>
#include <stdexcept>
#include <string>

#include "sim/scenario/input_file.hpp"

namespace lynxsim::scenario {

std::vector<int> read_length_file(const std::filesystem::path& file) {
  std::istringstream in(read_input_file(file, kMaxTraceFileBytes));
  std::vector<int> values;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    int v = 0;
    const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    if (ec != std::errc() || end != line.data() + line.size() || v < 1) {
      throw std::runtime_error(fmt::format("{}:{}: expected a positive integer length, got \"{}\"",
                                           file.string(), number, line));
    }
    values.push_back(v);
  }
  if (values.empty()) throw std::runtime_error(fmt::format("{}: no lengths", file.string()));
  return values;
}

}  // namespace lynxsim::scenario
