#include "sim/fields/strict_json.hpp"

#include <fmt/format.h>
#include <set>
#include <vector>

#include "sim/fields/object_reader.hpp"
#include "sim/fields/issues.hpp"

namespace lynxsim::fields {
namespace {

using nlohmann::json;

// One open object or array: the node being filled, its pointer, and for an object its keys so
// far and the key whose value comes next.
struct Frame {
  json* node = nullptr;
  std::string pointer;
  std::set<std::string> keys{};
  std::string pending_key{};
};

class StrictSax : public nlohmann::json_sax<json> {
public:
  explicit StrictSax(json& root) : root_(root) {}

  bool null() override { return add(json(nullptr)); }
  bool boolean(bool v) override { return add(json(v)); }
  bool number_integer(number_integer_t v) override { return add(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return add(json(v)); }
  bool string(string_t& v) override { return add(json(std::move(v))); }
  bool binary(binary_t& v) override { return add(json::binary(std::move(v))); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& top = stack_.back();
    if (!top.keys.insert(k).second) {
      throw StrictJsonError(pointer_child(top.pointer, k),
                            fmt::format("duplicate key \"{}\" (an object may name a key once)", k), 0);
    }
    top.pending_key = k;
    return true;
  }

  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) override {
    std::string detail = e.what();
    const auto colon = detail.find(": ");
    if (colon != std::string::npos) detail = detail.substr(colon + 2);
    throw StrictJsonError("", detail, byte);
  }

private:
  // Places a value in the open container (or as the root) and returns where it now lives.
  json* place(json value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Frame& top = stack_.back();
    if (top.node->is_object()) return &((*top.node)[top.pending_key] = std::move(value));
    top.node->push_back(std::move(value));
    return &top.node->back();
  }

  // The pointer of the value `place` is about to add.
  std::string next_pointer() const {
    if (stack_.empty()) return "";
    const Frame& top = stack_.back();
    if (top.node->is_object()) return pointer_child(top.pointer, top.pending_key);
    return pointer_child(top.pointer, std::to_string(top.node->size()));
  }

  bool add(json value) {
    place(std::move(value));
    return true;
  }

  bool open(json container) {
    std::string pointer = next_pointer();
    if (stack_.size() >= kMaxJsonDepth) {
      throw StrictJsonError(pointer, fmt::format("nested deeper than {} levels", kMaxJsonDepth), 0);
    }
    stack_.push_back(Frame{place(std::move(container)), std::move(pointer)});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  json& root_;
  std::vector<Frame> stack_;
};

}  // namespace

json parse_strict_json(const std::string& text) {
  json root;
  StrictSax sax(root);
  json::sax_parse(text, &sax);
  return root;
}

namespace {

std::string line_column(const std::string& text, std::size_t byte) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("line {}, column {}", line, column);
}

}  // namespace

nlohmann::json parse_json_document(const std::string& text, const std::string& file) {
  try {
    return parse_strict_json(text);
  } catch (const StrictJsonError& e) {
    if (!e.pointer().empty()) throw InputError(file, {{e.pointer(), e.what()}});
    throw InputError(file, {{"", fmt::format("JSON syntax error at {}: {}", line_column(text, e.byte()),
                                                e.what())}});
  }
}

}  // namespace lynxsim::fields
