#pragma once
// Names read from input files (hosts, methods, presets) appear in messages and file names, so they
// must be printable: no ASCII control character (0x00-0x1f, 0x7f), which would split or corrupt a
// message line. Bytes >= 0x80 (UTF-8) are accepted.

#include <algorithm>
#include <string_view>

namespace lynxsim {

inline bool has_control_character(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

}  // namespace lynxsim
