#pragma once
// Text read from input reaches the terminal in two ways, and both are made harmless here.
//
// Names read from input files (hosts, methods, presets) appear in messages and file names, so they
// must be printable: no ASCII control character (0x00-0x1f, 0x7f), which would split or corrupt a
// message line. Bytes >= 0x80 (UTF-8) are accepted.
//
// Free text (a scenario's description, a path, a value quoted in an error message, a flow's label)
// is printed through terminal_text(): every control character becomes a visible escape (C0 and
// DEL as \n, \t, \r or \xHH; the C1 controls U+0080-U+009F, which some terminals obey like ESC,
// as \u00HH; a byte that is not part of valid UTF-8 as \xHH), so a file cannot move the cursor,
// clear the screen or set the window title. keep_newlines keeps '\n' for the multi-line messages
// lynxsim composes itself.

#include <algorithm>
#include <string>
#include <string_view>

namespace lynxsim {

inline bool has_control_character(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

std::string terminal_text(std::string_view text, bool keep_newlines = false);

// Whether text is well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or code points above
// U+10FFFF), as a JSON string must be.
bool is_valid_utf8(std::string_view text);

}  // namespace lynxsim
