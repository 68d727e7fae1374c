#include <doctest/doctest.h>

#include <string>

#include "sim/core/printable.hpp"

using lynxsim::is_valid_utf8;
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

TEST_CASE("UTF-8 is checked as JSON strings need it") {
  CHECK(is_valid_utf8("ascii and caf\xc3\xa9, \xe2\x82\xac, \xf0\x9f\x98\x80"));
  CHECK_FALSE(is_valid_utf8("lone \x9a"));
  CHECK_FALSE(is_valid_utf8("cut \xe2\x82"));
  CHECK_FALSE(is_valid_utf8("overlong \xc0\xaf"));
  CHECK_FALSE(is_valid_utf8("surrogate \xed\xa0\x80"));
}
