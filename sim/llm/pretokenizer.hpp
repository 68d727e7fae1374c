#pragma once
// Pre-tokenization of byte-level BPE with the model's own regular expressions, run by PCRE2.
//
// A GGUF file names its pre-tokenizer in tokenizer.ggml.pre; the expressions of each name are
// llama.cpp's (llama-vocab.cpp), which restate the model's Hugging Face tokenizer.json. SmolLM2's
// ("smollm": Sequence[Digits(individual_digits), ByteLevel(use_regex)]) is two steps:
//   1. \p{N}                    every numeric character is a piece of its own;
//   2. 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//                               GPT-2's expression, on each piece left by step 1.
// Each step splits every current piece into its matches (leftmost-first, as PCRE2 finds them, the
// piece being the whole subject, so (?!\S) also holds at a piece's end) and the text between them.
// Patterns are compiled with PCRE2_UTF | PCRE2_UCP, so \p{L}, \p{N} and \s are Unicode's classes
// (\s is Unicode white space in categories Z plus tab, LF, VT, FF and CR; U+0085 is not included,
// where Hugging Face's Oniguruma includes it). Bytes that are not valid UTF-8 (PCRE2_MATCH_INVALID_UTF)
// match nothing and stay between matches, as pieces of their own, so every input is covered.
// The pieces concatenate back to the text. BPE merges never cross pieces.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lynxsim::llm {

class PreTokenizer {
public:
  // The expressions of a tokenizer.ggml.pre name ("smollm", "gpt-2"); throws
  // std::invalid_argument naming the known ones for any other.
  static PreTokenizer for_name(std::string_view name);
  // Throws std::invalid_argument with PCRE2's message when an expression does not compile.
  explicit PreTokenizer(const std::vector<std::string>& expressions);
  ~PreTokenizer();
  PreTokenizer(PreTokenizer&&) noexcept;
  PreTokenizer& operator=(PreTokenizer&&) noexcept;

  // The pieces in order; views into `text`.
  std::vector<std::string_view> split(std::string_view text) const;

private:
  struct Patterns;
  std::unique_ptr<Patterns> patterns_;
};

// SmolLM2's pre-tokenization (PreTokenizer::for_name("smollm")).
std::vector<std::string_view> pretokenize(std::string_view text);

}  // namespace lynxsim::llm
