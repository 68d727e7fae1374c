#include "sim/store/layer_profiles_json.hpp"

#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/fields/field_table.hpp"
#include "sim/fields/object_reader.hpp"
#include "sim/fields/strict_json.hpp"
#include "sim/store/text_file.hpp"

// Designated initializers leave the other members at their defaults on purpose; GCC 12 still warns.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace lynxsim::store {
namespace {

using accuracy::LayerProfiles;
using fields::Field;
using fields::FieldType;
using fields::ObjectReader;
using nlohmann::json;

constexpr Field number(std::string_view key, double min, double max) {
  return Field{.key = key, .type = FieldType::number, .min = min, .max = max, .required = true};
}
constexpr Field text(std::string_view key) { return Field{.key = key, .type = FieldType::text, .required = true}; }

constexpr Field kLatent[] = {number("gain_spread", 0.0, 3.0), number("rope_scale", 0.01, 100.0),
                             number("sink_score_margin", 0.0, 50.0)};
constexpr Field kState[] = {Field{.key = "A", .doc = "[lo, hi]", .min = 0.0, .max = 1000.0, .required = true},
                            Field{.key = "dt", .doc = "[lo, hi]", .min = 1e-6, .max = 10.0, .required = true},
                            number("a_std", 0.0, 10.0), number("b_std", 0.0, 10.0),
                            Field{.key = "readout_queries", .type = FieldType::integer, .min = 1, .max = 4096, .required = true},
                            Field{.key = "continue_steps", .doc = "ascending steps", .min = 1, .max = 65536, .required = true}};
constexpr Field kSources[] = {text("latent"), text("state")};
constexpr Field kTop[] = {Field{.key = "schema_version", .type = FieldType::integer, .min = 1, .max = 1, .required = true},
                          text("name"), text("description"), Field{.key = "latent", .required = true},
                          Field{.key = "state", .required = true}, Field{.key = "sources", .required = true}};

const Field& field(std::span<const Field> table, std::string_view key) {
  return fields::FieldSection{"layer-profiles", "", table}[key];
}

std::pair<double, double> read_pair(ObjectReader& r, const Field& f) {
  const json* value = r.get(f.key, true);
  if (value == nullptr) return {f.min, f.min};
  if (!value->is_array() || value->size() != 2 || !(*value)[0].is_number() || !(*value)[1].is_number() ||
      !(f.min <= (*value)[0].get<double>() && (*value)[0].get<double>() <= (*value)[1].get<double>() &&
        (*value)[1].get<double>() <= f.max)) {
    r.issues().add(r.child(f.key), fmt::format("expected [lo, hi] with {} <= lo <= hi <= {}", f.min, f.max));
    return {f.min, f.min};
  }
  return {(*value)[0].get<double>(), (*value)[1].get<double>()};
}

std::vector<int> read_steps(ObjectReader& r, const Field& f) {
  const json* value = r.get(f.key, true);
  std::vector<int> out;
  if (value == nullptr) return out;
  bool ok = value->is_array() && !value->empty();
  for (std::size_t i = 0; ok && i < value->size(); ++i) {
    const json& v = (*value)[i];
    ok = v.is_number_integer() && v.get<int>() >= f.min && v.get<int>() <= f.max && (out.empty() || v.get<int>() > out.back());
    if (ok) out.push_back(v.get<int>());
  }
  if (!ok) r.issues().add(r.child(f.key), fmt::format("expected ascending integers in [{}, {}]", f.min, f.max));
  return out;
}

template <class Read>
void section(ObjectReader& top, std::string_view key, Read read) {
  const json* node = top.get(field(kTop, key).key, true);
  if (node == nullptr) return;
  ObjectReader r(*node, top.child(key), top.issues());
  if (r.valid()) read(r);
  r.finish();
}

void read_state(ObjectReader& r, accuracy::StateProfile& s) {
  std::tie(s.a_lo, s.a_hi) = read_pair(r, field(kState, "A"));
  std::tie(s.dt_lo, s.dt_hi) = read_pair(r, field(kState, "dt"));
  s.a_std = r.number(field(kState, "a_std")).value_or(0.0);
  s.b_std = r.number(field(kState, "b_std")).value_or(0.0);
  s.readout_queries = static_cast<int>(r.integer(field(kState, "readout_queries")).value_or(1));
  s.continue_steps = read_steps(r, field(kState, "continue_steps"));
}

}  // namespace

LayerProfiles parse_layer_profiles(const json& document, const std::string& source) {
  fields::IssueList issues;
  LayerProfiles out;
  ObjectReader top(document, "", issues);
  if (top.valid()) {
    top.integer(field(kTop, "schema_version"));
    top.string(field(kTop, "name"));
    top.string(field(kTop, "description"));
    section(top, "latent", [&](ObjectReader& r) {
      out.latent.gain_spread = r.number(field(kLatent, "gain_spread")).value_or(0.0);
      out.latent.rope_scale = r.number(field(kLatent, "rope_scale")).value_or(1.0);
      out.latent.sink_score_margin = r.number(field(kLatent, "sink_score_margin")).value_or(0.0);
    });
    section(top, "state", [&](ObjectReader& r) { read_state(r, out.state); });
    section(top, "sources", [&](ObjectReader& r) {
      r.string(field(kSources, "latent"));
      r.string(field(kSources, "state"));
    });
  }
  top.finish();
  issues.throw_if_any(source);
  return out;
}

LayerProfiles load_layer_profiles(const std::string& path) {
  return parse_layer_profiles(fields::parse_json_document(read_text_file(path), path), path);
}

json layer_profiles_to_json(const LayerProfiles& p) {
  return json{{"latent",
               {{"gain_spread", p.latent.gain_spread},
                {"rope_scale", p.latent.rope_scale},
                {"sink_score_margin", p.latent.sink_score_margin}}},
              {"state",
               {{"A", json::array({p.state.a_lo, p.state.a_hi})},
                {"dt", json::array({p.state.dt_lo, p.state.dt_hi})},
                {"a_std", p.state.a_std},
                {"b_std", p.state.b_std},
                {"readout_queries", p.state.readout_queries},
                {"continue_steps", p.state.continue_steps}}}};
}

}  // namespace lynxsim::store
