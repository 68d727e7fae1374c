#pragma once
// Coarse Unicode classes for the GPT-2 style pre-tokenizer: letter (\p{L}), number (\p{N}),
// white space (\s) and everything else (punctuation, symbols, marks, format and control
// characters), plus a tolerant UTF-8 decoder.
//
// ASCII and Latin-1 are classified exactly. Above U+00FF the tables list the number ranges, the
// white-space code points, and the main punctuation/symbol/mark blocks (general punctuation,
// currency, arrows, mathematical and technical symbols, box drawing, dingbats, CJK punctuation,
// full-width punctuation, emoji, combining marks, variation selectors); any other code point is
// taken to be a letter. That matches the Unicode categories for Latin, Greek, Cyrillic, CJK,
// Hangul, kana and the emoji and punctuation common in text, and is an approximation elsewhere
// (e.g. the dependent vowel signs of Indic scripts, which are marks, count as letters here).
//
// UTF-8 decoding never fails: a byte that does not start a valid, minimal sequence is returned as
// a one-byte unit of class Other, so byte-level BPE still covers every input.

#include <cstdint>
#include <string_view>

namespace lynxsim::llm {

enum class CharClass { Letter, Number, Space, Other };

CharClass classify_code_point(std::uint32_t cp);

struct Utf8Unit {
  std::uint32_t code_point;  // 0xFFFFFFFF for an invalid byte
  int length;                // bytes consumed, 1 to 4
};

// Decodes the unit starting at text[pos] (pos < text.size()).
Utf8Unit decode_utf8(std::string_view text, std::size_t pos);

CharClass classify_unit(const Utf8Unit& unit);

}  // namespace lynxsim::llm
