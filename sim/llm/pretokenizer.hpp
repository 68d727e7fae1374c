#pragma once
// Pre-tokenization of SmolLM's byte-level BPE (llama.cpp's tokenizer type "smollm", the same split
// as Hugging Face's Sequence[Digits(individual_digits), ByteLevel(use_regex)]).
//
// Text is first split so that every number character (\p{N}) is a piece of its own; each remaining
// stretch is then split by the GPT-2 expression
//   's|'t|'re|'ve|'m|'ll|'d | ?\p{L}+ | ?\p{N}+ | ?[^\s\p{L}\p{N}]+ | \s+(?!\S) | \s+
// evaluated leftmost-first, as a regular-expression engine would. The consequence worth knowing:
// a run of white space before a word gives all but its last character to one piece, and the last
// one, when it is a plain space, starts the word's piece (" hello"). BPE merges never cross pieces.
// Character classes come from unicode_class.hpp (exact for ASCII/Latin-1, tabulated above).

#include <string_view>
#include <vector>

namespace lynxsim::llm {

// Returns the pieces in order; they are views into `text` and concatenate back to it.
std::vector<std::string_view> pretokenize(std::string_view text);

}  // namespace lynxsim::llm
