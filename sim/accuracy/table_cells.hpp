#pragma once
// Cell formatting shared by the accuracy layer's text tables: a number through a printf pattern,
// and padding to a column width (right-aligned unless `left`).

#include <cstdio>
#include <string>

namespace lynxsim::accuracy {

inline std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

inline std::string pad(const std::string& text, std::size_t width, bool left = false) {
  if (text.size() >= width) return text;
  const std::string fill(width - text.size(), ' ');
  return left ? text + fill : fill + text;
}

}  // namespace lynxsim::accuracy
