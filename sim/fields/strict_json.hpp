#pragma once
// Parsing a scenario's JSON text strictly, without recursion on the input's depth.
//
// On top of JSON's grammar (RFC 8259) the text must not nest objects and arrays deeper than
// kMaxJsonDepth levels (no real scenario needs more than about ten; deeper input would otherwise
// let later recursive copies and dumps of the tree exhaust the stack) and no object may repeat a
// key (RFC 8259 leaves duplicates to the reader; a silent "last one wins" hides typos). The parser
// is nlohmann's iterative SAX parser with a handler that builds the tree and checks both rules, so
// its own depth is bounded by a heap-allocated stack. Violations throw StrictJsonError with the
// JSON pointer where they occur; a grammar error carries the byte offset.

#include <cstddef>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace lynxsim::fields {

inline constexpr std::size_t kMaxJsonDepth = 64;

class StrictJsonError : public std::runtime_error {
public:
  StrictJsonError(std::string pointer, std::string message, std::size_t byte)
      : std::runtime_error(message), pointer_(std::move(pointer)), byte_(byte) {}
  // Where the problem is: a JSON pointer ("" for the grammar errors), and for those the byte
  // offset at which parsing stopped (0 otherwise).
  const std::string& pointer() const { return pointer_; }
  std::size_t byte() const { return byte_; }

private:
  std::string pointer_;
  std::size_t byte_;
};

nlohmann::json parse_strict_json(const std::string& text);
// parse_strict_json for the text of `file`: a violation throws InputError naming the file, with
// the JSON pointer, or for a grammar error the line and column.
nlohmann::json parse_json_document(const std::string& text, const std::string& file);

}  // namespace lynxsim::fields
