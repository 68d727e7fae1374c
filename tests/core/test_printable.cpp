#include <doctest/doctest.h>

#include <string>

#include "sim/core/printable.hpp"

using lynxsim::terminal_text;

TEST_CASE("text from input reaches the terminal with every control character escaped") {
  CHECK(terminal_text("plain text, UTF-8: caf\xc3\xa9") == "plain text, UTF-8: caf\xc3\xa9");
  CHECK(terminal_text("\x1b]0;title\x07\x1b[2J") == "\\x1b]0;title\\x07\\x1b[2J");
  CHECK(terminal_text("a\tb\rc\nd") == "a\\tb\\rc\\nd");
  CHECK(terminal_text("a\nb", true) == "a\nb");
  CHECK(terminal_text(std::string("nul\0del\x7f", 8)) == "nul\\x00del\\x7f");
  CHECK(terminal_text("csi \xc2\x9b" "31m") == "csi \\u009b31m");
  CHECK(terminal_text("nbsp \xc2\xa0") == "nbsp \xc2\xa0");
  CHECK(terminal_text("lone \x9b byte, cut \xe2\x82") == "lone \\x9b byte, cut \\xe2\\x82");
  CHECK(terminal_text("overlong \xc0\xaf") == "overlong \\xc0\\xaf");
}
