#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sim/llm/pretokenizer.hpp"
#include "sim/llm/tokenizer.hpp"

using namespace lynxsim::llm;

namespace {

std::vector<std::string> pieces(std::string_view text) {
  std::vector<std::string> out;
  for (const std::string_view p : pretokenize(text)) {
    out.emplace_back(p);
  }
  return out;
}

Tokenizer tiny_tokenizer() {
  TokenizerSpec spec;
  spec.tokens = {"<s>",
                 "a",
                 "b",
                 "c",
                 "ab",
                 "abc",
                 "\xC4\xA0",
                 "\xC4\xA0"
                 "ab",
                 "!"};
  spec.types = {TokenType::Control, TokenType::Normal, TokenType::Normal,
                TokenType::Normal,  TokenType::Normal, TokenType::Normal,
                TokenType::Normal,  TokenType::Normal, TokenType::Normal};
  spec.merges = {"a b", "ab c", "\xC4\xA0 ab"};
  spec.bos_id = 0;
  spec.eos_id = 0;
  return Tokenizer(std::move(spec));
}

}  // namespace

TEST_CASE("pre-tokenization splits words with their leading space and isolates digits") {
  CHECK(pieces("Hello world") == std::vector<std::string>{"Hello", " world"});
  CHECK(pieces("x 2024!") == std::vector<std::string>{"x", " ", "2", "0", "2", "4", "!"});
  CHECK(pieces("it's  a   test\n\nnew") ==
        std::vector<std::string>{"it", "'s", " ", " a", "  ", " test", "\n", "\n", "new"});
  CHECK(pieces("end.  ") == std::vector<std::string>{"end", ".", "  "});
  CHECK(pieces("caf\xC3\xA9 \xF0\x9F\x99\x82") ==
        std::vector<std::string>{"caf\xC3\xA9", " \xF0\x9F\x99\x82"});
  CHECK(pieces("we'll ?!") == std::vector<std::string>{"we", "'ll", " ?!"});
  CHECK(pieces("").empty());
}

TEST_CASE("pre-tokenization follows Unicode's letter, number and space classes in every script") {
  using Pieces = std::vector<std::string>;
  CHECK(pieces("你好，世界。") == Pieces{"你好", "，", "世界", "。"});
  CHECK(pieces("Καλημέρα κόσμε") == Pieces{"Καλημέρα", " κόσμε"});
  // U+0301 (combining acute) is a mark, not a letter: precomposed "ï" stays inside its word.
  CHECK(pieces("naïve cafe\u0301s") == Pieces{"naïve", " cafe", "\u0301", "s"});
  // Devanagari vowel signs and the virama are marks too.
  CHECK(pieces("नमस्ते") == Pieces{"नमस", "्", "त", "े"});
  CHECK(pieces("hi 👋🏽! ok 👩\u200d💻") == Pieces{"hi", " 👋🏽!", " ok", " 👩\u200d💻"});
  // Every numeric character alone: ASCII, full-width, superscript, Arabic-Indic.
  CHECK(pieces("x12１２³٣") == Pieces{"x", "1", "2", "１", "２", "³", "٣"});
  // Contractions are lower-case only.
  CHECK(pieces("they'll DON'T") == Pieces{"they", "'ll", " DON", "'", "T"});
  // No-break and ideographic spaces are white space, but only U+0020 joins the next word.
  CHECK(pieces("a\u00a0b\u3000c") == Pieces{"a", "\u00a0", "b", "\u3000", "c"});
}

TEST_CASE("malformed UTF-8 is covered byte by byte instead of failing") {
  const std::string bad = "\xC3(\xE2\x82";
  std::string joined;
  for (const std::string& p : pieces(bad)) joined += p;
  CHECK(joined == bad);
  CHECK(pieces("ab\xFF" "cd") == std::vector<std::string>{"ab", "\xFF", "cd"});
}

TEST_CASE("a pre-tokenizer is known by its GGUF name, and bad expressions are refused") {
  CHECK(PreTokenizer::for_name("gpt-2").split("x 2024") == std::vector<std::string_view>{"x", " 2024"});
  CHECK_THROWS_AS(PreTokenizer::for_name("llama3"), std::invalid_argument);
  CHECK_THROWS_AS(PreTokenizer({"(unclosed"}), std::invalid_argument);
}

TEST_CASE("BPE merges the lowest-ranked pair first and maps spaces to the byte alphabet") {
  const Tokenizer tok = tiny_tokenizer();
  CHECK(tok.encode("abc ab") == std::vector<int>{5, 7});
  CHECK(tok.encode("ba!") == std::vector<int>{2, 1, 8});
  CHECK(tok.encode("<s>ab") == std::vector<int>{0, 4});
  CHECK(tok.decode(std::vector<int>{0, 5, 7}) == "<s>abc ab");
  CHECK(tok.decode(std::vector<int>{0, 5, 7}, true) == "abc ab");
  CHECK(tok.find("abc") == 5);
  CHECK_FALSE(tok.find("zzz").has_value());
  CHECK_THROWS_AS(tok.encode("d"), std::runtime_error);
  CHECK_THROWS_AS(tok.token_text(9), std::out_of_range);
}

TEST_CASE("the chat prompt follows SmolLM2's template") {
  const std::string p = format_chat_prompt("Hi");
  CHECK(p.rfind("<|im_start|>system\n", 0) == 0);
  CHECK(p.find("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n") != std::string::npos);
}

namespace {

Tokenizer tiny_spm_tokenizer() {
  TokenizerSpec spec;
  spec.tokens = {"<bos>", "\n", "a", "b", "c", "ab", "bc", "\xE2\x96\x81", "\xE2\x96\x81" "ab",
                 "<0x7A>", "<0xC3>", "<0xA9>"};
  spec.types = {TokenType::Control, TokenType::UserDefined, TokenType::Normal, TokenType::Normal,
                TokenType::Normal,  TokenType::Normal,      TokenType::Normal, TokenType::Normal,
                TokenType::Normal,  TokenType::Byte,        TokenType::Byte,   TokenType::Byte};
  spec.scores = {0, 0, -5, -5, -5, -1, -0.5f, -5, -0.1f, 0, 0, 0};
  spec.bos_id = 0;
  spec.add_bos = true;
  return Tokenizer(std::move(spec));
}

}  // namespace

TEST_CASE("SentencePiece BPE merges the best-scoring pair, maps spaces to U+2581 and falls back to bytes") {
  const Tokenizer tok = tiny_spm_tokenizer();
  CHECK(tok.encode("abc") == std::vector<int>{2, 6});  // "bc" outscores "ab"
  CHECK(tok.encode(" ab") == std::vector<int>{8});     // "ab" first, then "▁ab"
  CHECK(tok.encode("z") == std::vector<int>{9});
  CHECK(tok.encode("\xC3\xA9") == std::vector<int>{10, 11});
  CHECK(tok.encode("a\nb") == std::vector<int>{2, 1, 3});  // user-defined tokens split the text
  CHECK(tok.encode_prompt("a") == std::vector<int>{0, 2});
  CHECK(tok.decode(std::vector<int>{8, 9, 10, 11}) == " abz\xC3\xA9");
}
