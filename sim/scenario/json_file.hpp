#pragma once
// A JSON input file of the planning data (search files, price and energy tables): read as a
// configuration file (input_file.hpp, kMaxConfigFileBytes) and parsed strictly (strict_json.hpp);
// a file that cannot be read or parsed is a ScenarioError of that file (exit 2). Its arrays of
// objects are read row by row with read_object_rows.

#include <filesystem>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/scenario/json_fields.hpp"

namespace lynxsim::scenario {

nlohmann::json read_json_file(const std::filesystem::path& file);

// Each object of the array at `key` of `top` (required, non-empty) read by read(reader, index),
// its unknown keys recorded by finish().
template <class Read>
void read_object_rows(ObjectReader& top, std::string_view key, Read&& read) {
  const nlohmann::json* list = top.get(key, true);
  if (list == nullptr) return;
  const std::string where = top.child(key);
  if (!list->is_array() || list->empty()) {
    top.issues().add(where, fmt::format("expected a non-empty array, got {}", describe_value(*list)));
    return;
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    ObjectReader r((*list)[i], fmt::format("{}/{}", where, i), top.issues());
    if (r.valid()) read(r, i);
    r.finish();
  }
}

}  // namespace lynxsim::scenario
