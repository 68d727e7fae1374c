#include "sim/scenario/price_file.hpp"

#include <fmt/format.h>

#include "sim/scenario/json_file.hpp"
#include "sim/scenario/json_fields.hpp"

namespace lynxsim::scenario {
namespace {

using nlohmann::json;

plan::Price read_price(ObjectReader& r, const FieldSection& F) {
  plan::Price p;
  p.usd_per_hour = r.number(F["usd_per_hour"]).value_or(0.0);
  p.source = r.string(F["source"]).value_or("");
  p.date = r.string(F["date"]).value_or("");
  return p;
}

}  // namespace

plan::PriceTable parse_price_table(const json& document, const std::string& file) {
  IssueList issues;
  ObjectReader top(document, "", issues);
  const FieldSection& F = field_section("prices");
  top.integer(F["schema_version"]);
  top.string(F["description"]);
  plan::PriceTable table;
  read_object_rows(top, F["gpus"].key, [&](ObjectReader& r, std::size_t i) {
    const FieldSection& G = field_section("price-gpu");
    const std::string gpu = r.string(G["gpu"]).value_or("");
    if (!table.gpus.emplace(gpu, read_price(r, G)).second) {
      issues.add(fmt::format("/gpus/{}/gpu", i), fmt::format("GPU \"{}\" is priced twice", gpu));
    }
  });
  read_object_rows(top, F["ports"].key, [&](ObjectReader& r, std::size_t i) {
    const FieldSection& P = field_section("price-port");
    plan::PortPrice port{r.bit_rate(P["rate"]).value_or(BitsPerSecond{}), read_price(r, P)};
    if (!table.ports.empty() && port.rate.value <= table.ports.back().rate.value) {
      issues.add(fmt::format("/ports/{}/rate", i), "ports must be listed by strictly ascending rate");
    }
    table.ports.push_back(port);
  });
  top.finish();
  issues.throw_if_any(file);
  return table;
}

plan::PriceTable load_price_table(const std::filesystem::path& file) {
  return parse_price_table(read_json_file(file), file.string());
}

}  // namespace lynxsim::scenario
