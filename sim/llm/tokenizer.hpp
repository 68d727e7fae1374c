#pragma once
// Byte-level BPE tokenizer (GPT-2 family) built from a GGUF file's own vocabulary and merges.
//
// Encoding: (1) with parse_special, the text is cut at every occurrence of a control or
// user-defined token (e.g. "<|im_start|>"), which map to their ids directly; (2) each remaining
// stretch is pre-tokenized with the model's expressions (pretokenizer.hpp; tokenizer.ggml.pre,
// "gpt-2" when the file has none); (3) each piece's bytes are mapped to GPT-2's
// printable byte alphabet (bytes 33-126, 161-172, 174-255 are themselves, the other 68 bytes map
// to U+0100 upward, so a space is "Ġ"); (4) the piece starts as one symbol per byte and the
// adjacent pair with the lowest merge rank (leftmost on ties) is merged until no pair has a rank;
// (5) symbols become vocabulary ids. No BOS is added (tokenizer.ggml.add_bos_token is false for
// SmolLM2). Decoding inverts the byte map; control tokens decode to their text unless skipped.
// With tokenizer.ggml.model "llama" (Gemma) steps (2)-(5) are SentencePiece BPE on scores
// (spm_encoder.hpp) instead, and a BOS is prepended when tokenizer.ggml.add_bos_token is true
// (encode's add_bos).

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/llm/gguf_file.hpp"
#include "sim/llm/pretokenizer.hpp"
#include "sim/llm/spm_encoder.hpp"

namespace lynxsim::llm {

enum class TokenType : int {
  Normal = 1,
  Unknown = 2,
  Control = 3,
  UserDefined = 4,
  Unused = 5,
  Byte = 6,
};

struct TokenizerSpec {
  std::vector<std::string> tokens;
  std::vector<TokenType> types;     // empty: all Normal
  std::vector<std::string> merges;  // "left right", highest priority first
  int bos_id = -1;
  int eos_id = -1;
  std::string pre = "smollm";  // pre-tokenizer name (PreTokenizer::for_name)
  std::vector<float> scores;   // non-empty: SentencePiece BPE on these scores, merges unused
  bool add_bos = false;
};

class Tokenizer {
public:
  explicit Tokenizer(TokenizerSpec spec);
  // Reads tokenizer.ggml.*; throws GgufError unless tokenizer.ggml.model is "gpt2" and
  // tokenizer.ggml.pre, when present, names a known pre-tokenizer.
  static Tokenizer from_gguf(const GgufFile& file);

  std::vector<int> encode(std::string_view text, bool parse_special = true) const;
  // encode(), with the BOS first when the model's tokenizer asks for one (Gemma; not SmolLM2).
  std::vector<int> encode_prompt(std::string_view text) const;
  bool adds_bos() const { return add_bos_; }
  std::string decode(std::span<const int> ids, bool skip_special = false) const;

  int vocab_size() const { return static_cast<int>(tokens_.size()); }
  int bos_id() const { return bos_id_; }
  int eos_id() const { return eos_id_; }
  const std::string& token_text(int id) const;
  std::optional<int> find(std::string_view token) const;

private:
  void encode_piece(std::string_view piece, std::vector<int>& out) const;
  std::size_t match_special(std::string_view text, std::size_t pos, int& id) const;

  std::vector<std::string> tokens_;
  std::vector<TokenType> types_;
  std::unordered_map<std::string, int> ids_;
  std::unordered_map<std::string, int> merge_ranks_;
  std::array<std::vector<int>, 256> special_ids_;  // control and user-defined by first byte,
                                                   // longest text first
  std::array<std::string, 256> byte_chars_;
  std::unordered_map<std::string, std::uint8_t> char_bytes_;  // the byte of each byte character
  int bos_id_ = -1;
  int eos_id_ = -1;
  bool add_bos_ = false;
  PreTokenizer pre_;
  std::optional<SpmEncoder> spm_;
};

// SmolLM2's chat template with its default system prompt, for one user message:
//   <|im_start|>system\n...<|im_end|>\n<|im_start|>user\n{message}<|im_end|>\n
//   <|im_start|>assistant\n
std::string format_chat_prompt(std::string_view user_message);

}  // namespace lynxsim::llm
