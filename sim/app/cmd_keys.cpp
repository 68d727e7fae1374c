#include <fmt/format.h>
#include "sim/app/commands.hpp"
#include "sim/app/input_errors.hpp"
#include "sim/scenario/field_table.hpp"

namespace lynxsim::app {

int cmd_keys(const std::string& table) {
  bool found = false;
  for (const scenario::FieldSection& section : scenario::scenario_field_sections()) {
    if (!table.empty() && section.id != table) continue;
    if (found) fmt::print("\n");
    found = true;
    fmt::print("<!-- keys: {} -->\n{}", section.id, scenario::render_key_table(section));
  }
  if (!found) {
    std::string ids;
    for (const auto& section : scenario::scenario_field_sections()) {
      ids += fmt::format("{}{}", ids.empty() ? "" : ", ", section.id);
    }
    throw InputError(fmt::format("no key table \"{}\" (tables: {})", table, ids));
  }
  return 0;
}

}  // namespace lynxsim::app
