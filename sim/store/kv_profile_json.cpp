#include "sim/store/kv_profile_json.hpp"

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

using nlohmann::json;
using accuracy::DepthRange;
using accuracy::KeyProfile;
using accuracy::KvProfile;
using accuracy::Range;
using accuracy::ValueProfile;
using fields::Field;
using fields::FieldType;
using fields::ObjectReader;

// A number in [min, max]; a range [lo, hi] with min <= lo <= hi <= max (type structured); an
// object {shallow, deep} of such ranges (type structured, no bounds of its own).
constexpr Field number(std::string_view key, double min, double max) {
  return Field{.key = key, .type = FieldType::number, .min = min, .max = max, .required = true};
}
constexpr Field range(std::string_view key, double min, double max) {
  return Field{.key = key, .doc = "[lo, hi]", .min = min, .max = max, .required = true};
}
constexpr Field text(std::string_view key) {
  return Field{.key = key, .type = FieldType::text, .required = true};
}

constexpr Field kKeys[] = {range("ar_rho", 0.0, 0.999),         range("student_nu", 2.5, 1000.0),
                           range("outlier_channels", 0.0, 64.0), range("outlier_scale", 1.0, 1000.0),
                           number("fixed_sign_fraction", 0.0, 1.0),
                           number("outlier_token_rate", 0.0, 0.5),
                           number("channel_sigma_spread", 0.0, 3.0),
                           number("channel_mean_scale", 0.0, 10.0)};
constexpr Field kValues[] = {number("token_scale_sigma", 0.0, 3.0), range("student_nu", 2.5, 1000.0),
                             number("ar_rho", 0.0, 0.999)};
constexpr Field kQueries[] = {number("outlier_energy", 0.0, 1.0), range("score_std", 0.05, 20.0)};
constexpr Field kSink[] = {number("score_margin", 0.0, 50.0), number("value_scale", 0.0, 10.0)};
constexpr Field kNeedle[] = {number("margin", 0.0, 50.0)};
constexpr Field kSection[] = {Field{.key = "keys", .required = true},
                              Field{.key = "values", .required = true},
                              Field{.key = "queries", .required = true},
                              Field{.key = "sink", .required = true},
                              Field{.key = "needle", .required = true}};
constexpr Field kHeader[] = {Field{.key = "schema_version", .type = FieldType::integer, .min = 1,
                                   .max = 1, .required = true},
                             text("name"), text("description")};

const Field& field(std::span<const Field> table, std::string_view key) {
  return fields::FieldSection{"kv-profile", "", table}[key];
}

Range read_pair(ObjectReader& r, const Field& f) {
  const Range fallback{f.min, f.min};
  const json* value = r.get(f.key, true);
  if (value == nullptr) return fallback;
  if (!value->is_array() || value->size() != 2 || !(*value)[0].is_number() || !(*value)[1].is_number()) {
    r.issues().add(r.child(f.key), fmt::format("expected [lo, hi], got {}", fields::describe_value(*value)));
    return fallback;
  }
  const Range out{(*value)[0].get<double>(), (*value)[1].get<double>()};
  if (!(f.min <= out.lo && out.lo <= out.hi && out.hi <= f.max)) {
    r.issues().add(r.child(f.key), fmt::format("expected {} <= lo <= hi <= {}", f.min, f.max));
    return fallback;
  }
  return out;
}

DepthRange depth_range(ObjectReader& parent, const Field& f) {
  DepthRange out{{f.min, f.min}, {f.min, f.min}};
  const json* node = parent.get(f.key, true);
  if (node == nullptr) return out;
  ObjectReader r(*node, parent.child(f.key), parent.issues());
  out.shallow = read_pair(r, range("shallow", f.min, f.max));
  out.deep = read_pair(r, range("deep", f.min, f.max));
  r.finish();
  return out;
}

double num(ObjectReader& r, std::span<const Field> table, std::string_view key) {
  return r.number(field(table, key)).value_or(0.0);
}

KeyProfile parse_keys(ObjectReader& r) {
  KeyProfile out;
  out.ar_rho = read_pair(r, field(kKeys, "ar_rho"));
  out.student_nu = read_pair(r, field(kKeys, "student_nu"));
  out.outlier_channels = read_pair(r, field(kKeys, "outlier_channels"));
  out.outlier_scale = depth_range(r, field(kKeys, "outlier_scale"));
  out.fixed_sign_fraction = num(r, kKeys, "fixed_sign_fraction");
  out.outlier_token_rate = num(r, kKeys, "outlier_token_rate");
  out.channel_sigma_spread = num(r, kKeys, "channel_sigma_spread");
  out.channel_mean_scale = num(r, kKeys, "channel_mean_scale");
  return out;
}

ValueProfile parse_values(ObjectReader& r) {
  ValueProfile out;
  out.token_scale_sigma = num(r, kValues, "token_scale_sigma");
  out.student_nu = read_pair(r, field(kValues, "student_nu"));
  out.ar_rho = num(r, kValues, "ar_rho");
  return out;
}

// Reads section `key` of the profile with `read` when it is there.
template <class Read>
void section(ObjectReader& top, std::string_view key, Read read) {
  const json* node = top.get(field(kSection, key).key, true);
  if (node == nullptr) return;
  ObjectReader r(*node, top.child(key), top.issues());
  if (r.valid()) read(r);
  r.finish();
}

void parse_sections(ObjectReader& top, KvProfile& out) {
  section(top, "keys", [&](ObjectReader& r) { out.keys = parse_keys(r); });
  section(top, "values", [&](ObjectReader& r) { out.values = parse_values(r); });
  section(top, "queries", [&](ObjectReader& r) {
    out.queries.outlier_energy = num(r, kQueries, "outlier_energy");
    out.queries.score_std = depth_range(r, field(kQueries, "score_std"));
  });
  section(top, "sink", [&](ObjectReader& r) {
    out.sink_score_margin = num(r, kSink, "score_margin");
    out.sink_value_scale = num(r, kSink, "value_scale");
  });
  section(top, "needle", [&](ObjectReader& r) { out.needle_margin = num(r, kNeedle, "margin"); });
}

json range_json(const Range& r) { return json::array({r.lo, r.hi}); }
json depth_json(const DepthRange& d) { return json{{"shallow", range_json(d.shallow)}, {"deep", range_json(d.deep)}}; }

}  // namespace

KvProfile parse_kv_profile(const json& document, const std::string& source) {
  fields::IssueList issues;
  KvProfile out;
  ObjectReader top(document, "", issues);
  if (top.valid()) {
    top.integer(field(kHeader, "schema_version"));
    out.name = top.string(field(kHeader, "name")).value_or("");
    out.description = top.string(field(kHeader, "description")).value_or("");
    parse_sections(top, out);
  }
  top.finish();
  issues.throw_if_any(source);
  return out;
}

KvProfile load_kv_profile(const std::string& path) {
  return parse_kv_profile(fields::parse_json_document(read_text_file(path), path), path);
}

json kv_profile_to_json(const KvProfile& p) {
  return json{
      {"schema_version", 1},
      {"name", p.name},
      {"description", p.description},
      {"keys",
       {{"ar_rho", range_json(p.keys.ar_rho)},
        {"student_nu", range_json(p.keys.student_nu)},
        {"outlier_channels", range_json(p.keys.outlier_channels)},
        {"outlier_scale", depth_json(p.keys.outlier_scale)},
        {"fixed_sign_fraction", p.keys.fixed_sign_fraction},
        {"outlier_token_rate", p.keys.outlier_token_rate},
        {"channel_sigma_spread", p.keys.channel_sigma_spread},
        {"channel_mean_scale", p.keys.channel_mean_scale}}},
      {"values",
       {{"token_scale_sigma", p.values.token_scale_sigma},
        {"student_nu", range_json(p.values.student_nu)},
        {"ar_rho", p.values.ar_rho}}},
      {"queries", {{"outlier_energy", p.queries.outlier_energy}, {"score_std", depth_json(p.queries.score_std)}}},
      {"sink", {{"score_margin", p.sink_score_margin}, {"value_scale", p.sink_value_scale}}},
      {"needle", {{"margin", p.needle_margin}}}};
}

std::string kv_profile_canonical(const KvProfile& profile) { return kv_profile_to_json(profile).dump(); }

}  // namespace lynxsim::store
