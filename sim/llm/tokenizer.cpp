#include "sim/llm/tokenizer.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "sim/llm/utf8.hpp"

namespace lynxsim::llm {
namespace {

std::string utf8_encode(std::uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

bool printable_byte(int b) {
  return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
}

bool is_special(TokenType type) {
  return type == TokenType::Control || type == TokenType::UserDefined;
}

}  // namespace

Tokenizer::Tokenizer(TokenizerSpec spec)
    : tokens_(std::move(spec.tokens)),
      types_(std::move(spec.types)),
      bos_id_(spec.bos_id),
      eos_id_(spec.eos_id),
      add_bos_(spec.add_bos),
      pre_(PreTokenizer::for_name(spec.pre)) {
  if (types_.empty()) {
    types_.assign(tokens_.size(), TokenType::Normal);
  }
  if (types_.size() != tokens_.size()) {
    throw std::invalid_argument("Tokenizer: token and token-type counts differ");
  }
  for (std::size_t k = 0; k < tokens_.size(); ++k) {
    ids_.emplace(tokens_[k], static_cast<int>(k));
    if (is_special(types_[k]) && !tokens_[k].empty()) {
      special_ids_[static_cast<unsigned char>(tokens_[k][0])].push_back(static_cast<int>(k));
    }
  }
  for (auto& bucket : special_ids_) {
    std::stable_sort(bucket.begin(), bucket.end(), [&](int a, int b) {
      return tokens_[static_cast<std::size_t>(a)].size() >
             tokens_[static_cast<std::size_t>(b)].size();
    });
  }
  if (!spec.scores.empty()) {
    spm_.emplace(tokens_, std::move(spec.scores));
  }
  for (std::size_t k = 0; k < spec.merges.size(); ++k) {
    merge_ranks_.emplace(spec.merges[k], static_cast<int>(k));
  }
  int extra = 0;
  for (int b = 0; b < 256; ++b) {
    const std::uint32_t cp = printable_byte(b) ? static_cast<std::uint32_t>(b)
                                               : static_cast<std::uint32_t>(256 + extra++);
    byte_chars_[static_cast<std::size_t>(b)] = utf8_encode(cp);
    char_bytes_[byte_chars_[static_cast<std::size_t>(b)]] = static_cast<std::uint8_t>(b);
  }
}

Tokenizer Tokenizer::from_gguf(const GgufFile& file) {
  const std::string& model = file.value("tokenizer.ggml.model").as_string();
  if (model != "gpt2" && model != "llama") {
    throw GgufError("unsupported tokenizer model '" + model +
                    "' (gpt2 byte-level BPE and llama SentencePiece are implemented)");
  }
  TokenizerSpec spec;
  spec.tokens = file.value("tokenizer.ggml.tokens").as_string_array();
  if (model == "gpt2") {
    spec.merges = file.value("tokenizer.ggml.merges").as_string_array();
  } else {
    for (const double score : file.value("tokenizer.ggml.scores").as_float_array()) {
      spec.scores.push_back(static_cast<float>(score));
    }
    if (file.has("tokenizer.ggml.add_space_prefix") &&
        file.value("tokenizer.ggml.add_space_prefix").as_bool()) {
      throw GgufError("SentencePiece tokenizers with add_space_prefix are not supported");
    }
  }
  spec.add_bos = file.has("tokenizer.ggml.add_bos_token") &&
                 file.value("tokenizer.ggml.add_bos_token").as_bool();
  if (file.has("tokenizer.ggml.token_type")) {
    for (const std::int64_t t : file.value("tokenizer.ggml.token_type").as_int_array()) {
      spec.types.push_back(static_cast<TokenType>(t));
    }
  }
  const auto id_key = [&](const char* key) {
    return file.has(key) ? static_cast<int>(file.value(key).as_int()) : -1;
  };
  spec.bos_id = id_key("tokenizer.ggml.bos_token_id");
  spec.eos_id = id_key("tokenizer.ggml.eos_token_id");
  spec.pre = model == "gpt2" && file.has("tokenizer.ggml.pre")
                 ? file.value("tokenizer.ggml.pre").as_string()
                 : "gpt-2";
  try {
    return Tokenizer(std::move(spec));
  } catch (const std::invalid_argument& error) {
    throw GgufError(error.what());
  }
}

const std::string& Tokenizer::token_text(int id) const {
  if (id < 0 || id >= vocab_size()) {
    throw std::out_of_range("token id " + std::to_string(id) + " is outside the vocabulary");
  }
  return tokens_[static_cast<std::size_t>(id)];
}

std::optional<int> Tokenizer::find(std::string_view token) const {
  const auto it = ids_.find(std::string(token));
  return it == ids_.end() ? std::nullopt : std::optional<int>(it->second);
}

void Tokenizer::encode_piece(std::string_view piece, std::vector<int>& out) const {
  std::vector<std::string> symbols;
  for (const char c : piece) {
    symbols.push_back(byte_chars_[static_cast<std::uint8_t>(c)]);
  }
  while (symbols.size() > 1) {
    int best_rank = std::numeric_limits<int>::max();
    std::size_t best = 0;
    for (std::size_t k = 0; k + 1 < symbols.size(); ++k) {
      const auto it = merge_ranks_.find(symbols[k] + " " + symbols[k + 1]);
      if (it != merge_ranks_.end() && it->second < best_rank) {
        best_rank = it->second;
        best = k;
      }
    }
    if (best_rank == std::numeric_limits<int>::max()) {
      break;
    }
    symbols[best] += symbols[best + 1];
    symbols.erase(symbols.begin() + static_cast<std::ptrdiff_t>(best) + 1);
  }
  for (const std::string& symbol : symbols) {
    const auto it = ids_.find(symbol);
    if (it == ids_.end()) {
      throw std::runtime_error("BPE symbol '" + symbol + "' is not in the vocabulary");
    }
    out.push_back(it->second);
  }
}

std::size_t Tokenizer::match_special(std::string_view text, std::size_t pos, int& id) const {
  for (const int candidate : special_ids_[static_cast<unsigned char>(text[pos])]) {
    const std::string& s = tokens_[static_cast<std::size_t>(candidate)];
    if (text.compare(pos, s.size(), s) == 0) {
      id = candidate;
      return s.size();
    }
  }
  return 0;
}

std::vector<int> Tokenizer::encode(std::string_view text, bool parse_special) const {
  std::vector<int> out;
  std::size_t start = 0;
  const auto flush = [&](std::size_t end) {
    if (spm_) {
      spm_->encode(text.substr(start, end - start), out);
      return;
    }
    for (const std::string_view piece : pre_.split(text.substr(start, end - start))) {
      encode_piece(piece, out);
    }
  };
  for (std::size_t pos = 0; parse_special && pos < text.size();) {
    int id = -1;
    const std::size_t length = match_special(text, pos, id);
    if (length == 0) {
      ++pos;
      continue;
    }
    flush(pos);
    out.push_back(id);
    pos += length;
    start = pos;
  }
  flush(text.size());
  return out;
}

std::vector<int> Tokenizer::encode_prompt(std::string_view text) const {
  std::vector<int> out;
  if (add_bos_ && bos_id_ >= 0) {
    out.push_back(bos_id_);
  }
  const std::vector<int> body = encode(text);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

std::string Tokenizer::decode(std::span<const int> ids, bool skip_special) const {
  std::string out;
  for (const int id : ids) {
    const std::string& text = token_text(id);
    if (is_special(types_[static_cast<std::size_t>(id)])) {
      if (!skip_special) {
        out += text;
      }
      continue;
    }
    if (spm_) {
      spm_->decode_token(text, out);
      continue;
    }
    for (std::size_t pos = 0; pos < text.size();) {
      const std::size_t length =
          std::min(utf8_length(static_cast<unsigned char>(text[pos])), text.size() - pos);
      const auto it = char_bytes_.find(text.substr(pos, length));
      if (it != char_bytes_.end()) {
        out += static_cast<char>(it->second);
      } else {
        out.append(text, pos, length);
      }
      pos += length;
    }
  }
  return out;
}

std::string format_chat_prompt(std::string_view user_message) {
  std::string out =
      "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging "
      "Face<|im_end|>\n<|im_start|>user\n";
  out += user_message;
  out += "<|im_end|>\n<|im_start|>assistant\n";
  return out;
}

}  // namespace lynxsim::llm
