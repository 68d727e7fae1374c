// Writes the libFuzzer dictionary of the scenario keys (scripts/fuzz.sh runs it before fuzzing),
// generated from the field tables so that it never lags behind them: every key as a JSON object
// key ("\"bandwidth\":"), every table's keys as a `--set` path ("network.bandwidth="), and every
// choice of a key as a JSON string.

#include <cstdio>
#include <set>
#include <string>

#include "sim/scenario/field_table.hpp"

namespace {

std::string dictionary_entry(const std::string& token) {
  std::string out = "\"";
  for (const char c : token) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string set_prefix(std::string_view pointer) {
  std::string out;
  for (const char c : pointer.substr(pointer.empty() ? 0 : 1)) out += c == '/' ? '.' : c;
  return out.empty() ? out : out + ".";
}

}  // namespace

int main() {
  std::set<std::string> tokens;
  for (const lynxsim::scenario::FieldSection& section : lynxsim::scenario::scenario_field_sections()) {
    for (const lynxsim::scenario::Field& field : section.fields) {
      const std::string key(field.key);
      tokens.insert("\"" + key + "\":");
      tokens.insert(set_prefix(section.pointer) + key + "=");
      for (const std::string_view choice : lynxsim::scenario::choice_names(field)) {
        tokens.insert("\"" + std::string(choice) + "\"");
      }
    }
  }
  for (const std::string& token : tokens) std::printf("%s\n", dictionary_entry(token).c_str());
  return 0;
}
