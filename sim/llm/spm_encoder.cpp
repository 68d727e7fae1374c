#include "sim/llm/spm_encoder.hpp"

#include <cstdio>
#include <queue>
#include <stdexcept>

#include "sim/llm/utf8.hpp"

namespace lynxsim::llm {
namespace {

const std::string kSpace = "\xE2\x96\x81";  // U+2581

struct Bigram {
  int left = 0;
  int right = 0;
  float score = 0.0f;
  std::size_t length = 0;
};

struct BigramOrder {
  bool operator()(const Bigram& a, const Bigram& b) const {
    return a.score < b.score || (a.score == b.score && a.left > b.left);
  }
};

}  // namespace

SpmEncoder::SpmEncoder(const std::vector<std::string>& tokens, std::vector<float> scores)
    : scores_(std::move(scores)) {
  if (scores_.size() != tokens.size()) {
    throw std::invalid_argument("SPM tokenizer: token and score counts differ");
  }
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    ids_.emplace(tokens[k], static_cast<int>(k));
  }
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    const auto it = ids_.find(name);
    byte_ids_[static_cast<std::size_t>(b)] = it == ids_.end() ? -1 : it->second;
  }
}

int SpmEncoder::lookup(std::string_view piece) const {
  const auto it = ids_.find(std::string(piece));
  return it == ids_.end() ? -1 : it->second;
}

void SpmEncoder::resegment(const std::string& text, const Symbol& symbol, const MergeMap& merges,
                           std::vector<int>& out) const {
  const std::string_view piece(text.data() + symbol.begin, symbol.length);
  const int id = lookup(piece);
  if (id >= 0) {
    out.push_back(id);
    return;
  }
  const auto it = merges.find(std::string(piece));
  if (it == merges.end()) {
    for (const char c : piece) {
      const int byte = byte_ids_[static_cast<unsigned char>(c)];
      if (byte < 0) {
        throw std::runtime_error("SPM tokenizer: no byte token for a character");
      }
      out.push_back(byte);
    }
    return;
  }
  const auto [left, right] = it->second;
  resegment(text, Symbol{-1, -1, symbol.begin, left}, merges, out);
  resegment(text, Symbol{-1, -1, symbol.begin + left, right}, merges, out);
}

std::vector<SpmEncoder::Symbol> SpmEncoder::characters(const std::string& text) {
  std::vector<Symbol> symbols;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t n = std::min(utf8_length(static_cast<unsigned char>(text[pos])), text.size() - pos);
    const int index = static_cast<int>(symbols.size());
    symbols.push_back({index - 1, -1, pos, n});
    if (index > 0) {
      symbols[static_cast<std::size_t>(index) - 1].next = index;
    }
    pos += n;
  }
  return symbols;
}

void SpmEncoder::encode(std::string_view raw, std::vector<int>& out) const {
  std::string text;
  for (const char c : raw) {
    text += c == ' ' ? kSpace : std::string(1, c);
  }
  std::vector<Symbol> symbols = characters(text);
  MergeMap revmerge;
  std::priority_queue<Bigram, std::vector<Bigram>, BigramOrder> queue;
  const auto try_add = [&](int left, int right) {
    if (left < 0 || right < 0) return;
    const Symbol& l = symbols[static_cast<std::size_t>(left)];
    const Symbol& r = symbols[static_cast<std::size_t>(right)];
    const std::string piece = text.substr(l.begin, l.length + r.length);
    const int id = lookup(piece);
    if (id < 0) return;
    queue.push({left, right, scores_[static_cast<std::size_t>(id)], piece.size()});
    revmerge[piece] = {l.length, r.length};
  };
  for (std::size_t i = 1; i < symbols.size(); ++i) {
    try_add(static_cast<int>(i) - 1, static_cast<int>(i));
  }
  while (!queue.empty()) {
    const Bigram top = queue.top();
    queue.pop();
    Symbol& left = symbols[static_cast<std::size_t>(top.left)];
    Symbol& right = symbols[static_cast<std::size_t>(top.right)];
    if (left.length == 0 || right.length == 0 || left.length + right.length != top.length) {
      continue;
    }
    left.length += right.length;
    right.length = 0;
    left.next = right.next;
    if (right.next >= 0) {
      symbols[static_cast<std::size_t>(right.next)].prev = top.left;
    }
    try_add(left.prev, top.left);
    try_add(top.left, left.next);
  }
  for (int i = symbols.empty() ? -1 : 0; i >= 0; i = symbols[static_cast<std::size_t>(i)].next) {
    resegment(text, symbols[static_cast<std::size_t>(i)], revmerge, out);
  }
}

void SpmEncoder::decode_token(const std::string& token, std::string& out) const {
  if (token.size() == 6 && token.rfind("<0x", 0) == 0 && token[5] == '>') {
    out += static_cast<char>(std::stoi(token.substr(3, 2), nullptr, 16));
    return;
  }
  for (std::size_t pos = 0; pos < token.size();) {
    if (token.compare(pos, kSpace.size(), kSpace) == 0) {
      out += ' ';
      pos += kSpace.size();
    } else {
      out += token[pos++];
    }
  }
}

}  // namespace lynxsim::llm
