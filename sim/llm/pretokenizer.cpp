#include "sim/llm/pretokenizer.hpp"

#include <array>

#include "sim/llm/unicode_class.hpp"

namespace lynxsim::llm {
namespace {

struct Char {
  std::size_t pos;
  std::size_t len;
  std::uint32_t cp;
  CharClass cls;
};

std::vector<Char> decode_all(std::string_view text) {
  std::vector<Char> out;
  for (std::size_t pos = 0; pos < text.size();) {
    const Utf8Unit unit = decode_utf8(text, pos);
    out.push_back(
        {pos, static_cast<std::size_t>(unit.length), unit.code_point, classify_unit(unit)});
    pos += static_cast<std::size_t>(unit.length);
  }
  return out;
}

std::size_t contraction_length(const std::vector<Char>& c, std::size_t i, std::size_t end) {
  if (c[i].cp != '\'' || i + 1 >= end) {
    return 0;
  }
  const std::uint32_t a = c[i + 1].cp;
  if (a == 's' || a == 't' || a == 'm' || a == 'd') {
    return 2;
  }
  if (i + 2 < end) {
    const std::uint32_t b = c[i + 2].cp;
    if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) {
      return 3;
    }
  }
  return 0;
}

std::size_t run_of(const std::vector<Char>& c, std::size_t i, std::size_t end, CharClass cls) {
  while (i < end && c[i].cls == cls) {
    ++i;
  }
  return i;
}

// Index one past the piece that starts at c[i], for the stretch c[i, end).
std::size_t piece_end(const std::vector<Char>& c, std::size_t i, std::size_t end) {
  if (const std::size_t n = contraction_length(c, i, end); n > 0) {
    return i + n;
  }
  const std::size_t j =
      (c[i].cp == ' ' && i + 1 < end && c[i + 1].cls != CharClass::Space) ? i + 1 : i;
  if (c[j].cls != CharClass::Space) {
    return run_of(c, j + 1, end, c[j].cls);
  }
  const std::size_t space_end = run_of(c, i, end, CharClass::Space);
  if (space_end == end || space_end - i == 1) {
    return space_end;
  }
  return space_end - 1;
}

}  // namespace

std::vector<std::string_view> pretokenize(std::string_view text) {
  const std::vector<Char> chars = decode_all(text);
  std::vector<std::string_view> pieces;
  const auto emit = [&](std::size_t from, std::size_t to) {
    const std::size_t begin = chars[from].pos;
    const std::size_t finish = chars[to - 1].pos + chars[to - 1].len;
    pieces.push_back(text.substr(begin, finish - begin));
  };
  std::size_t i = 0;
  while (i < chars.size()) {
    if (chars[i].cls == CharClass::Number) {
      emit(i, i + 1);
      ++i;
      continue;
    }
    std::size_t stretch_end = i;
    while (stretch_end < chars.size() && chars[stretch_end].cls != CharClass::Number) {
      ++stretch_end;
    }
    while (i < stretch_end) {
      const std::size_t next = piece_end(chars, i, stretch_end);
      emit(i, next);
      i = next;
    }
  }
  return pieces;
}

}  // namespace lynxsim::llm
