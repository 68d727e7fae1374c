// The scenario key tables: every table is well formed, every default passes its own key's checks,
// the docs show exactly the rendered tables, and a reader asking for an undeclared key fails.

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "scenario_test_paths.hpp"
#include "sim/scenario/field_table.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/quant/method_spec.hpp"

namespace lynxsim::scenario {
namespace {

void read_tables(std::istream& in, std::map<std::string, std::string>& tables, int& repeated) {
  std::string line;
  std::string* current = nullptr;
  while (std::getline(in, line)) {
    const std::string marker = "<!-- keys: ";
    if (line.rfind(marker, 0) == 0) {
      const std::string id = line.substr(marker.size(), line.size() - marker.size() - 4);
      repeated += tables.count(id) > 0 ? 1 : 0;
      current = &tables[id];
    } else if (line.empty()) {
      current = nullptr;
    } else if (current != nullptr) {
      *current += line + "\n";
    }
  }
}

// The tables of docs/scenario.md, docs/models.md (the card tables) and docs/search.md: the lines after each
// "<!-- keys: ID -->" up to a blank line; an id shown twice is counted in `repeated`.
std::map<std::string, std::string> doc_tables(int& repeated) {
  std::map<std::string, std::string> tables;
  for (const char* name : {"scenario.md", "models.md", "search.md"}) {
    std::ifstream in(testing::source_dir() / "docs" / name);
    read_tables(in, tables, repeated);
  }
  return tables;
}

// Reads one field of `section` from an empty object: its default, through the reader's checks.
void read_default(const Field& f) {
  IssueList issues;
  const nlohmann::json empty = nlohmann::json::object();
  ObjectReader r(empty, "/x", issues);
  switch (f.type) {
    case FieldType::integer: CHECK(r.integer(f).has_value()); break;
    case FieldType::number: CHECK(r.number(f).has_value()); break;
    case FieldType::boolean: CHECK(r.boolean(f).has_value()); break;
    case FieldType::text:
    case FieldType::name:
    case FieldType::choice: CHECK(r.string(f).has_value()); break;
    case FieldType::duration: CHECK(r.time(f).has_value()); break;
    case FieldType::rate: CHECK(r.bit_rate(f).has_value()); break;
    case FieldType::size: CHECK(r.bytes(f).has_value()); break;
    case FieldType::structured: CHECK(nlohmann::json::accept(f.default_json)); break;
    case FieldType::flop_rate:
    case FieldType::byte_rate: FAIL("card quantities have no defaults"); break;
  }
  CHECK(issues.empty());
}

}  // namespace

TEST_CASE("every key table is well formed and its defaults pass their own checks") {
  std::set<std::string_view> ids;
  for (const FieldSection& section : scenario_field_sections()) {
    CAPTURE(section.id);
    CHECK(ids.insert(section.id).second);
    std::set<std::string_view> keys;
    for (const Field& f : section.fields) {
      CAPTURE(f.key);
      CHECK(keys.insert(f.key).second);
      CHECK_FALSE(f.doc.empty());
      CHECK_FALSE((f.required && !f.default_json.empty()));
      CHECK((f.type == FieldType::choice) == !f.choices.empty());
      if (!f.default_json.empty()) read_default(f);
    }
  }
}

TEST_CASE("docs/scenario.md, docs/models.md and docs/search.md show exactly the rendered key tables") {
  int repeated = 0;
  const auto docs = doc_tables(repeated);
  CHECK(repeated == 0);
  INFO("scripts/update_key_tables.py rewrites the docs' tables from the field tables");
  for (const FieldSection& section : scenario_field_sections()) {
    CAPTURE(section.id);
    REQUIRE(docs.count(std::string(section.id)) == 1);
    CHECK(docs.at(std::string(section.id)) == render_key_table(section));
  }
  CHECK(docs.size() == scenario_field_sections().size());
}

TEST_CASE("a table's defaults agree with the typed structs they fill") {
  CHECK(field_section("scenario")["schema_version"].max == kScenarioSchemaVersion);
  const quant::CacheGenParams params;
  const nlohmann::json empty = nlohmann::json::object();
  IssueList issues;
  ObjectReader r(empty, "/c", issues);
  const FieldSection& F = field_section("cachegen");
  CHECK(r.count(F["chunk_tokens"]) == params.chunk_tokens);
  CHECK(r.time(F["slo"])->seconds() == doctest::Approx(params.slo_s));
  CHECK(r.bit_rate(F["initial_bandwidth"])->to_bytes().value ==
        doctest::Approx(params.initial_bandwidth_bytes_per_s));
  CHECK(r.bit_rate(F["encode_throughput"])->to_bytes().value / 1e6 ==
        doctest::Approx(params.encode_mb_per_s));
  CHECK(r.bit_rate(F["decode_throughput"])->to_bytes().value / 1e6 ==
        doctest::Approx(params.decode_mb_per_s));
}

TEST_CASE("the resolved form of a key comes from its table, and an undeclared key is a bug") {
  const nlohmann::json given = {{"max_decode_batch", 8}};
  IssueList issues;
  nlohmann::json resolved = nlohmann::json::object();
  ObjectReader r(given, "/serving", issues);
  r.resolve_into(resolved);
  const FieldSection& F = field_section("serving");
  CHECK(r.count(F["max_decode_batch"]) == 8);
  CHECK(r.number(F["decode_hbm_fraction"]) == doctest::Approx(0.9));
  CHECK(r.string(F["streaming"]) == "layerwise");
  CHECK(resolved == nlohmann::json{{"max_decode_batch", 8}, {"decode_hbm_fraction", 0.9},
                                   {"streaming", "layerwise"}});
  CHECK_THROWS_AS(F["no_such_key"], std::logic_error);
  CHECK_THROWS_AS(r.bytes(F["max_decode_batch"]), std::logic_error);
}

}  // namespace lynxsim::scenario
