#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "sim/accuracy/tasks/real_passkey.hpp"
#include "sim/llm/tokenizer.hpp"

using namespace lynxsim::accuracy;
namespace llm = lynxsim::llm;

namespace {

// A byte-level SentencePiece vocabulary: BOS, "<0x00>".."<0xFF>" and the space mark U+2581, so
// every character of an ASCII text is one token and token counts are character counts.
llm::Tokenizer byte_tokenizer() {
  llm::TokenizerSpec spec;
  spec.tokens = {"<bos>"};
  spec.types = {llm::TokenType::Control};
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    spec.tokens.emplace_back(name);
    spec.types.push_back(llm::TokenType::Byte);
  }
  spec.tokens.emplace_back("\xE2\x96\x81");
  spec.types.push_back(llm::TokenType::Normal);
  spec.scores.assign(spec.tokens.size(), 0.0f);
  spec.bos_id = 0;
  spec.add_bos = true;
  return llm::Tokenizer(std::move(spec));
}

}  // namespace

TEST_CASE("the in-text passkey prompt has exactly the context's tokens with the needle at its depth") {
  const llm::Tokenizer tok = byte_tokenizer();
  std::string text;
  while (text.size() < 2000) text += "Plain words of a long manual. ";
  const std::vector<int> haystack = tok.encode_prompt(text);
  for (const double depth : {0.0, 0.5, 1.0}) {
    const PasskeyPrompt p = make_text_passkey_prompt(tok, haystack, 600, depth, 1, 0);
    CHECK(p.tokens.size() == 600);
    CHECK(p.tokens.front() == 0);
    const std::string decoded = tok.decode(p.tokens, true);
    const std::size_t needle = decoded.find(" The pass key is " + p.passkey + ".");
    REQUIRE(needle != std::string::npos);
    const std::size_t intro_end = decoded.find("information there.") + 18;
    const std::size_t question = decoded.rfind(" What is the pass key?");
    const std::size_t needle_length = decoded.find("is the pass key. ", needle) + 17 - needle;
    const double body = static_cast<double>(question - intro_end - needle_length);
    CHECK(static_cast<double>(needle - intro_end) == doctest::Approx(depth * body).epsilon(0.01));
    CHECK(decoded.substr(intro_end, 10) == (depth == 0.0 ? " The pass " : "Plain word"));
  }
  CHECK_THROWS_AS(make_text_passkey_prompt(tok, haystack, 5000, 0.5, 1, 0), std::invalid_argument);
  CHECK_THROWS_AS(make_text_passkey_prompt(tok, haystack, 600, 1.5, 1, 0), std::invalid_argument);
}
