#include "sim/scenario/search_file.hpp"

#include <cstdio>
#include <map>

#include <fmt/format.h>

#include "sim/scenario/json_file.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/price_file.hpp"
#include "sim/scenario/scenario.hpp"

namespace lynxsim::scenario {
namespace fs = std::filesystem;
namespace {

using nlohmann::json;
constexpr int kMaxRatioPart = 64;

// Each item of the array at `key` read by read(reader, item key), the item wrapped in an object
// whose one key is its index, so the reader's messages carry the item's JSON pointer.
template <class T, class Read>
std::vector<T> read_list(ObjectReader& r, std::string_view key, Read&& read) {
  std::vector<T> items;
  const json* list = r.get(key);
  if (list == nullptr) return items;
  if (!list->is_array() || list->empty()) {
    r.issues().add(r.child(key), fmt::format("expected a non-empty array, got {}", describe_value(*list)));
    return items;
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string index = std::to_string(i);
    const json wrapped{{index, (*list)[i]}};
    ObjectReader item(wrapped, r.child(key), r.issues());
    if (auto value = read(item, index)) items.push_back(std::move(*value));
  }
  return items;
}

std::vector<int> int_list(ObjectReader& r, const Field& f) {
  return read_list<int>(r, f.key, [&](ObjectReader& item, const std::string& k) {
    return item.count(k, static_cast<std::int64_t>(f.min), static_cast<std::int64_t>(f.max));
  });
}

std::vector<std::string> name_list(ObjectReader& r, const Field& f) {
  return read_list<std::string>(r, f.key, [](ObjectReader& item, const std::string& k) { return item.name(k); });
}

std::vector<json> value_list(ObjectReader& r, const Field& f) {
  return read_list<json>(r, f.key, [](ObjectReader& item, const std::string& k) -> std::optional<json> {
    const json* v = item.get(k);
    if (v->is_string() || v->is_object()) return *v;
    item.issues().add(item.child(k), fmt::format("expected a name or an object, got {}", describe_value(*v)));
    return std::nullopt;
  });
}

std::optional<std::pair<int, int>> ratio(ObjectReader& item, const std::string& k) {
  const auto text = item.string(k);
  if (!text) return std::nullopt;
  int p = 0;
  int d = 0;
  char colon = 0;
  char extra = 0;
  if (std::sscanf(text->c_str(), "%d%c%d%c", &p, &colon, &d, &extra) == 3 && colon == ':' && p >= 1 &&
      d >= 1 && p <= kMaxRatioPart && d <= kMaxRatioPart) {
    return std::pair{p, d};
  }
  item.issues().add(item.child(k), fmt::format("expected \"P:D\" with P and D in 1..{}, got \"{}\"",
                                               kMaxRatioPart, *text));
  return std::nullopt;
}

SearchChoices read_choices(ObjectReader& top) {
  SearchChoices c;
  const json* given = top.get("choices");
  if (given == nullptr) return c;
  ObjectReader r(*given, "/choices", top.issues());
  if (!r.valid()) return c;
  const FieldSection& F = field_section("search-choices");
  c.prefill_gpu = name_list(r, F["prefill_gpu"]);
  c.decode_gpu = name_list(r, F["decode_gpu"]);
  c.prefill_tp = int_list(r, F["prefill_tp"]);
  c.decode_tp = int_list(r, F["decode_tp"]);
  c.prefill_count = int_list(r, F["prefill_count"]);
  c.decode_count = int_list(r, F["decode_count"]);
  if (const auto budget = r.integer(F["gpu_budget"])) c.gpu_budget = static_cast<int>(*budget);
  c.pd_ratio = read_list<std::pair<int, int>>(r, F["pd_ratio"].key, ratio);
  c.network = value_list(r, F["network"]);
  c.link_rate = read_list<std::string>(r, F["link_rate"].key, [](ObjectReader& item, const std::string& k)
                                       -> std::optional<std::string> {
    if (!item.bit_rate(k)) return std::nullopt;
    return item.get(k)->get<std::string>();
  });
  c.method = value_list(r, F["method"]);
  c.scheduling = name_list(r, F["scheduling"]);
  if (c.gpu_budget && (!c.prefill_count.empty() || !c.decode_count.empty())) {
    r.issues().add("/choices/gpu_budget", "give either gpu_budget (with pd_ratio) or prefill_count and "
                                          "decode_count, not both");
  }
  if (!c.pd_ratio.empty() && !c.gpu_budget) r.issues().add("/choices/pd_ratio", "needs gpu_budget");
  if (c.gpu_budget && c.pd_ratio.empty()) c.pd_ratio = {{1, 1}};
  if (!c.network.empty() && !c.link_rate.empty()) {
    r.issues().add("/choices/link_rate", "give either network or link_rate, not both");
  }
  r.finish();
  return c;
}

plan::SloTargets read_targets(ObjectReader& top) {
  plan::SloTargets t;
  const json* given = top.get("targets", true);
  if (given == nullptr) return t;
  ObjectReader r(*given, "/targets", top.issues());
  if (!r.valid()) return t;
  const FieldSection& F = field_section("search-targets");
  t.ttft = r.time(F["ttft"]);
  t.ttft_percentile = r.number(F["ttft_percentile"]).value_or(t.ttft_percentile);
  t.tpot = r.time(F["tpot"]);
  t.tpot_percentile = r.number(F["tpot_percentile"]).value_or(t.tpot_percentile);
  t.min_attainment = r.number(F["attainment"]);
  t.reading = r.choice<plan::TtftReading>(F["ttft_reading"], {{"committed", plan::TtftReading::committed},
                                           {"speculative", plan::TtftReading::speculative}});
  if (r.get("ttft") == nullptr && r.get("tpot") == nullptr) {
    r.issues().add("/targets", "give a ttft or a tpot bound (or both)");
  }
  r.finish();
  return t;
}

plan::RateRange read_rate(ObjectReader& top) {
  plan::RateRange range;
  const json* given = top.get("rate", true);
  if (given == nullptr) return range;
  ObjectReader r(*given, "/rate", top.issues());
  if (!r.valid()) return range;
  const FieldSection& F = field_section("search-rate");
  range.min = r.number(F["min"]).value_or(0.0);
  range.max = r.number(F["max"]).value_or(0.0);
  range.tolerance = r.number(F["tolerance"]).value_or(0.05);
  if (range.min > 0.0 && range.max > 0.0 && range.max <= range.min) {
    r.issues().add("/rate/max", fmt::format("must be above min ({:g})", range.min));
  }
  r.finish();
  return range;
}

std::map<std::string, plan::Price> read_gpu_prices(ObjectReader& top) {
  std::map<std::string, plan::Price> prices;
  const json* given = top.get("gpu_prices");
  if (given == nullptr) return prices;
  ObjectReader r(*given, "/gpu_prices", top.issues());
  if (!r.valid()) return prices;
  for (const auto& [gpu, value] : given->items()) {
    if (const auto usd = r.number(gpu, 0.0, 1e6)) prices[gpu] = plan::Price{*usd, "the search file", ""};
  }
  r.finish();
  return prices;
}

fs::path folder_of(const fs::path& file) { return file.parent_path().empty() ? fs::path(".") : file.parent_path(); }

}  // namespace

SearchSpec load_search(const fs::path& file, const DataPaths& data) {
  SearchSpec s;
  s.source_file = file.string();
  s.document = read_json_file(file);
  IssueList issues;
  ObjectReader top(s.document, "", issues);
  const FieldSection& F = field_section("search");
  top.integer(F["schema_version"]);
  s.name = top.string(F["name"]).value_or("");
  if (top.get("name") != nullptr && !is_safe_scenario_name(s.name)) {
    issues.add("/name", "must be 1 to 100 characters of letters, digits and . _ + -, starting with a "
                        "letter or digit (it names the results folder)");
  }
  s.description = top.string(F["description"]).value_or("");
  if (const auto base = top.string(F["base"])) s.base = folder_of(file) / *base;
  s.set = read_list<std::string>(top, F["set"].key, [](ObjectReader& item, const std::string& k) {
    return item.string(k);
  });
  s.choices = read_choices(top);
  s.targets = read_targets(top);
  s.rate = read_rate(top);
  const auto prices = top.string(F["prices"]);
  const auto gpu_prices = read_gpu_prices(top);
  top.finish();
  issues.throw_if_any(file.string());
  s.prices = load_price_table(prices ? folder_of(file) / *prices : data.root / "data" / "prices.json");
  for (const auto& [gpu, price] : gpu_prices) s.prices.gpus[gpu] = price;
  return s;
}

}  // namespace lynxsim::scenario
