#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sim/llm/pretokenizer.hpp"
#include "sim/llm/tokenizer.hpp"
#include "sim/llm/unicode_class.hpp"

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

TEST_CASE("code points are classified as letters, numbers, spaces or other") {
  CHECK(classify_code_point('a') == CharClass::Letter);
  CHECK(classify_code_point(0x00E9) == CharClass::Letter);
  CHECK(classify_code_point(0x4F60) == CharClass::Letter);
  CHECK(classify_code_point(0x0416) == CharClass::Letter);
  CHECK(classify_code_point('7') == CharClass::Number);
  CHECK(classify_code_point(0x00B2) == CharClass::Number);
  CHECK(classify_code_point(0x0663) == CharClass::Number);
  CHECK(classify_code_point('\t') == CharClass::Space);
  CHECK(classify_code_point(0x3000) == CharClass::Space);
  CHECK(classify_code_point(0x2014) == CharClass::Other);
  CHECK(classify_code_point(0x1F642) == CharClass::Other);
  CHECK(classify_code_point(0x0301) == CharClass::Other);
}

TEST_CASE("malformed UTF-8 decodes byte by byte instead of failing") {
  const std::string bad = "\xC3(\xE2\x82";
  CHECK(decode_utf8(bad, 0).length == 1);
  CHECK(decode_utf8(bad, 0).code_point == 0xFFFFFFFFU);
  CHECK(decode_utf8("\xC0\x80", 0).length == 1);
  CHECK(decode_utf8("\xE2\x82\xAC", 0).code_point == 0x20AC);
  CHECK(pieces(bad).size() >= 1);
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
