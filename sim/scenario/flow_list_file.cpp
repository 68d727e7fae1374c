#include "sim/scenario/flow_list_file.hpp"

#include <cmath>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "sim/net/scheduling.hpp"
#include "sim/scenario/input_file.hpp"
#include "sim/core/unit_parse.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/strict_json.hpp"

namespace lynxsim::scenario {

using namespace net;
namespace {

using json = nlohmann::json;

FlowListEntry read_flow(const json& value, const std::string& path, IssueList& issues) {
  const FieldSection& F = field_section("flow");
  ObjectReader r(value, path, issues);
  FlowListEntry f;
  if (!r.valid()) return f;
  f.src = r.string(F["src"]).value_or("");
  f.dst = r.string(F["dst"]).value_or("");
  f.size = r.bytes(F["size"]).value_or(Bytes{0});
  f.start = r.time(F["start"]).value_or(Time::zero());
  f.priority_class = r.count(F["class"]).value_or(0);
  f.weight = r.number(F["weight"]).value_or(1.0);
  f.label = r.string(F["label"]).value_or("");
  r.finish();
  return f;
}

std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t from = 0;
  for (;;) {
    const auto comma = line.find(',', from);
    std::string cell = line.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    const auto first = cell.find_first_not_of(" \t");
    const auto last = cell.find_last_not_of(" \t");
    cells.push_back(first == std::string::npos ? std::string() : cell.substr(first, last - first + 1));
    if (comma == std::string::npos) return cells;
    from = comma + 1;
  }
}

// Column name -> (index, unit named in the header after '_', e.g. "start_s").
struct CsvColumns {
  std::map<std::string, std::pair<std::size_t, std::string>> by_name;

  static CsvColumns from_header(const std::string& header, const std::string& where) {
    CsvColumns c;
    const auto cells = split_cells(header);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      std::string name = cells[i];
      std::string unit;
      const auto us = name.find('_');
      if (us != std::string::npos && (name.starts_with("size_") || name.starts_with("start_"))) {
        unit = name.substr(us + 1);
        name = name.substr(0, us);
      }
      if (name != "src" && name != "dst" && name != "size" && name != "start" && name != "class" &&
          name != "weight" && name != "label") {
        throw std::invalid_argument(fmt::format(
            "{}: unknown column \"{}\" (src, dst, size, start, class, weight, label)", where, cells[i]));
      }
      if (!c.by_name.emplace(name, std::pair{i, unit}).second) {
        throw std::invalid_argument(fmt::format("{}: column \"{}\" given twice", where, name));
      }
    }
    for (const char* required : {"src", "dst", "size", "start"}) {
      if (!c.by_name.contains(required)) {
        throw std::invalid_argument(fmt::format("{}: missing column \"{}\"", where, required));
      }
    }
    return c;
  }

  std::optional<std::string> cell(const std::vector<std::string>& cells, const char* name) const {
    const auto it = by_name.find(name);
    if (it == by_name.end()) return std::nullopt;
    const std::string& v = cells.at(it->second.first);
    const bool bare = v.find_first_not_of("0123456789.+-eE") == std::string::npos;
    return bare && !v.empty() ? v + it->second.second : v;
  }
};

double number_cell(const std::string& cell, const char* what) {
  std::size_t used = 0;
  double v = 0.0;
  try {
    v = std::stod(cell, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != cell.size()) {
    throw std::invalid_argument(fmt::format("{} \"{}\" is not a number", what, cell));
  }
  return v;
}

FlowListEntry read_csv_row(const CsvColumns& c, const std::vector<std::string>& cells) {
  FlowListEntry f;
  f.src = *c.cell(cells, "src");
  f.dst = *c.cell(cells, "dst");
  if (f.src.empty() || f.dst.empty()) throw std::invalid_argument("empty host name");
  f.size = parse_bytes(*c.cell(cells, "size"));
  if (f.size.value < 0) throw std::invalid_argument("size must not be negative");
  f.start = parse_time(*c.cell(cells, "start"));
  if (f.start < Time::zero()) throw std::invalid_argument("start must not be negative");
  if (const auto cls = c.cell(cells, "class")) {
    const double v = number_cell(*cls, "class");
    if (v < 0 || v > 1e6 || v != static_cast<int>(v)) {
      throw std::invalid_argument("class must be an integer >= 0");
    }
    f.priority_class = static_cast<int>(v);
  }
  if (const auto w = c.cell(cells, "weight")) {
    f.weight = number_cell(*w, "weight");
    if (!(f.weight >= net::kMinWeight && f.weight <= net::kMaxWeight)) {
      throw std::invalid_argument("weight must be in [1e-06, 1000000]");
    }
  }
  if (const auto label = c.cell(cells, "label")) f.label = *label;
  return f;
}

}  // namespace

std::vector<FlowListEntry> parse_flow_list_json(const json& document, const std::string& file) {
  IssueList issues;
  ObjectReader top(document, "", issues);
  std::vector<FlowListEntry> flows;
  if (const json* list = top.get(field_section("flow-list")["flows"].key, true)) {
    if (!list->is_array()) issues.add("/flows", fmt::format("expected an array of flows, got {}", describe_value(*list)));
    for (std::size_t i = 0; list->is_array() && i < list->size(); ++i) {
      flows.push_back(read_flow((*list)[i], fmt::format("/flows/{}", i), issues));
      flows.back().where = fmt::format("{}: /flows/{}", file, i);
    }
  }
  top.finish();
  issues.throw_if_any(file);
  return flows;
}

std::vector<FlowListEntry> parse_flow_list_csv(std::string_view text, const std::string& file) {
  std::istringstream in{std::string(text)};
  std::string line;
  std::optional<CsvColumns> columns;
  std::vector<FlowListEntry> flows;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    const std::string where = fmt::format("{}:{}", file, number);
    if (!columns) {
      columns = CsvColumns::from_header(line, where);
      continue;
    }
    const auto cells = split_cells(line);
    if (cells.size() != columns->by_name.size()) {
      throw std::invalid_argument(fmt::format("{}: expected {} cells, found {}", where,
                                              columns->by_name.size(), cells.size()));
    }
    try {
      flows.push_back(read_csv_row(*columns, cells));
      flows.back().where = where;
    } catch (const std::exception& e) {
      throw std::invalid_argument(fmt::format("{}: {}", where, e.what()));
    }
  }
  if (!columns) throw std::invalid_argument(fmt::format("{}: expected a header line", file));
  return flows;
}

std::vector<FlowListEntry> load_flow_list(const std::string& file) {
  std::string text;
  try {
    text = read_input_file(file, kMaxTraceFileBytes);
  } catch (const InputFileError& e) {
    throw std::invalid_argument(fmt::format("flow list {}", e.what()));
  }
  if (!file.ends_with(".json")) return parse_flow_list_csv(text, file);
  return parse_flow_list_json(parse_json_document(text, file), file);
}

}  // namespace lynxsim::scenario
