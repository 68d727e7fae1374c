#include "sim/llm/pretokenizer.hpp"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <array>
#include <stdexcept>

namespace lynxsim::llm {
namespace {

constexpr const char* kGpt2 =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

struct CodeDeleter {
  void operator()(pcre2_code* code) const { pcre2_code_free(code); }
};
struct MatchDataDeleter {
  void operator()(pcre2_match_data* data) const { pcre2_match_data_free(data); }
};
using Code = std::unique_ptr<pcre2_code, CodeDeleter>;
using MatchData = std::unique_ptr<pcre2_match_data, MatchDataDeleter>;

Code compile(const std::string& expression) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  Code code(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(expression.data()), expression.size(),
                          PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &error, &offset,
                          nullptr));
  if (!code) {
    std::array<PCRE2_UCHAR, 256> message{};
    pcre2_get_error_message(error, message.data(), message.size());
    throw std::invalid_argument("pre-tokenizer expression '" + expression + "' at offset " +
                                std::to_string(offset) + ": " +
                                reinterpret_cast<const char*>(message.data()));
  }
  pcre2_jit_compile(code.get(), PCRE2_JIT_COMPLETE);
  return code;
}

// Appends to `out` the matches of `code` in `piece` and the stretches between them.
void split_piece(const pcre2_code* code, pcre2_match_data* data, std::string_view piece,
                 std::vector<std::string_view>& out) {
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(piece.data());
  std::size_t done = 0;
  std::size_t from = 0;
  while (from < piece.size()) {
    const int found = pcre2_match(code, subject, piece.size(), from, 0, data, nullptr);
    if (found == PCRE2_ERROR_NOMATCH) break;
    if (found < 0) throw std::runtime_error("pre-tokenizer: PCRE2 match error " + std::to_string(found));
    const PCRE2_SIZE* span = pcre2_get_ovector_pointer(data);
    if (span[1] == span[0]) {
      from = span[0] + 1;
      continue;
    }
    if (span[0] > done) out.push_back(piece.substr(done, span[0] - done));
    out.push_back(piece.substr(span[0], span[1] - span[0]));
    done = from = span[1];
  }
  if (done < piece.size()) out.push_back(piece.substr(done));
}

}  // namespace

struct PreTokenizer::Patterns {
  std::vector<Code> codes;
};

PreTokenizer PreTokenizer::for_name(std::string_view name) {
  if (name == "smollm") return PreTokenizer({R"(\p{N})", kGpt2});
  if (name == "gpt-2") return PreTokenizer({kGpt2});
  throw std::invalid_argument("unsupported pre-tokenizer '" + std::string(name) +
                              "' (known: smollm, gpt-2)");
}

PreTokenizer::PreTokenizer(const std::vector<std::string>& expressions)
    : patterns_(std::make_unique<Patterns>()) {
  for (const std::string& expression : expressions) {
    patterns_->codes.push_back(compile(expression));
  }
}

PreTokenizer::~PreTokenizer() = default;
PreTokenizer::PreTokenizer(PreTokenizer&&) noexcept = default;
PreTokenizer& PreTokenizer::operator=(PreTokenizer&&) noexcept = default;

std::vector<std::string_view> PreTokenizer::split(std::string_view text) const {
  std::vector<std::string_view> pieces;
  if (!text.empty()) pieces.push_back(text);
  for (const Code& code : patterns_->codes) {
    const MatchData data(pcre2_match_data_create_from_pattern(code.get(), nullptr));
    if (!data) throw std::bad_alloc();
    std::vector<std::string_view> next;
    for (const std::string_view piece : pieces) split_piece(code.get(), data.get(), piece, next);
    pieces = std::move(next);
  }
  return pieces;
}

std::vector<std::string_view> pretokenize(std::string_view text) {
  static const PreTokenizer smollm = PreTokenizer::for_name("smollm");
  return smollm.split(text);
}

}  // namespace lynxsim::llm
