#pragma once
// SentencePiece-style BPE on scores (tokenizer.ggml.model "llama"; Gemma, Llama 1-2), as
// llama.cpp's llm_tokenizer_spm runs it.
//
// Encoding one stretch of text: every space becomes U+2581 "▁" (no prefix space is added: Gemma's
// add_space_prefix is false); the stretch starts as one symbol per UTF-8 character; repeatedly,
// the adjacent pair whose concatenation is a vocabulary token with the highest score (leftmost on
// ties) is merged, until no adjacent pair forms a token. Each final symbol becomes its token; a
// symbol that is not a token is split back along the merges that formed it, and a single character
// that is not a token becomes its bytes' tokens "<0xXX>" (byte fallback). Decoding: "▁" becomes a
// space and byte tokens their byte.

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lynxsim::llm {

class SpmEncoder {
public:
  SpmEncoder() = default;
  // tokens and scores are the vocabulary in id order; byte tokens are found by their "<0xXX>" text.
  SpmEncoder(const std::vector<std::string>& tokens, std::vector<float> scores);

  void encode(std::string_view text, std::vector<int>& out) const;
  // Appends the text of one non-special token.
  void decode_token(const std::string& token, std::string& out) const;

private:
  struct Symbol {
    int prev = -1;
    int next = -1;
    std::size_t begin = 0;
    std::size_t length = 0;
  };
  using MergeMap = std::unordered_map<std::string, std::pair<std::size_t, std::size_t>>;
  // One symbol per UTF-8 character of `text`, linked in order.
  static std::vector<Symbol> characters(const std::string& text);
  void resegment(const std::string& text, const Symbol& symbol, const MergeMap& merges,
                 std::vector<int>& out) const;
  int lookup(std::string_view piece) const;

  std::unordered_map<std::string, int> ids_;
  std::vector<float> scores_;
  std::vector<int> byte_ids_ = std::vector<int>(256, -1);
};

}  // namespace lynxsim::llm
