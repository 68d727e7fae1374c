#include "sim/scenario/flow_list_file.hpp"

#include <cmath>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "sim/scenario/input_file.hpp"
#include "sim/core/unit_parse.hpp"
#include "sim/scenario/net_json_reader.hpp"

namespace lynxsim::scenario {

using namespace net;
namespace {

using json = nlohmann::json;

std::optional<Bytes> read_size(JsonReader& r, const json& o, const std::string& p) {
  const auto it = o.find("size");
  if (it == o.end()) {
    r.error(child(p, "size"), "missing required key");
    return std::nullopt;
  }
  try {
    if (!it->is_string()) throw UnitError("not a string");
    const Bytes b = parse_bytes(it->get<std::string>());
    if (b.value < 0) throw UnitError("must not be negative");
    return b;
  } catch (const std::exception& e) {
    r.error(child(p, "size"), fmt::format("expected a size like \"64MB\": {}", e.what()));
    return std::nullopt;
  }
}

FlowListEntry read_flow(JsonReader& r, const json& j, const std::string& p) {
  FlowListEntry f;
  if (!r.object(j, p, {"src", "dst", "size", "start", "class", "weight", "label"})) return f;
  f.src = r.string(j, p, "src", true).value_or("");
  f.dst = r.string(j, p, "dst", true).value_or("");
  f.size = read_size(r, j, p).value_or(Bytes{0});
  f.start = r.time(j, p, "start", false).value_or(Time::zero());
  f.priority_class = r.integer(j, p, "class", false, 0).value_or(0);
  f.weight = r.number(j, p, "weight", false).value_or(1.0);
  if (!(f.weight > 0.0)) r.error(child(p, "weight"), "must be positive");
  f.label = r.string(j, p, "label", false).value_or("");
  return f;
}

std::string issues_text(const std::string& file, const std::vector<ScenarioIssue>& issues) {
  std::string s = fmt::format("{}: invalid flow list:", file);
  for (const auto& i : issues) s += fmt::format("\n  {}: {}", i.json_path, i.message);
  return s;
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
    if (!(f.weight > 0.0) || !std::isfinite(f.weight)) {
      throw std::invalid_argument("weight must be positive");
    }
  }
  if (const auto label = c.cell(cells, "label")) f.label = *label;
  return f;
}

}  // namespace

std::vector<FlowListEntry> parse_flow_list_json(const json& document, const std::string& file) {
  std::vector<ScenarioIssue> issues;
  JsonReader r(issues);
  std::vector<FlowListEntry> flows;
  if (r.object(document, "", {"flows"})) {
    const auto it = document.find("flows");
    if (it == document.end() || !it->is_array()) {
      r.error("/flows", "expected an array of flows");
    } else {
      for (std::size_t i = 0; i < it->size(); ++i) {
        flows.push_back(read_flow(r, (*it)[i], "/flows/" + std::to_string(i)));
        flows.back().where = fmt::format("{}: /flows/{}", file, i);
      }
    }
  }
  if (!issues.empty()) throw std::invalid_argument(issues_text(file, issues));
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
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& e) {
    throw std::invalid_argument(fmt::format("{}: not valid JSON: {}", file, e.what()));
  }
  return parse_flow_list_json(document, file);
}

}  // namespace lynxsim::scenario
