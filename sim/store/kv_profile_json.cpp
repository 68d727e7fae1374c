#include "sim/store/kv_profile_json.hpp"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/store/json_checker.hpp"

namespace lynxsim::store {
namespace {

using nlohmann::json;
using accuracy::DepthRange;
using accuracy::KeyProfile;
using accuracy::KvProfile;
using accuracy::Range;
using accuracy::ValueProfile;

Range to_range(const std::vector<double>& v) { return Range{v[0], v[1]}; }

DepthRange depth_range(JsonChecker& check, const json& parent, const std::string& key, const std::string& path,
                       double min, double max) {
  DepthRange out{{min, min}, {min, min}};
  const json* node = check.object(parent, key, path);
  if (node == nullptr) return out;
  const std::string here = path + "/" + key;
  check.expect_keys(*node, here, {"shallow", "deep"});
  out.shallow = to_range(check.pair(*node, "shallow", here, min, max));
  out.deep = to_range(check.pair(*node, "deep", here, min, max));
  return out;
}

KeyProfile parse_keys(JsonChecker& check, const json& k, const std::string& p) {
  check.expect_keys(k, p, {"ar_rho", "student_nu", "outlier_channels", "outlier_scale", "fixed_sign_fraction",
                           "outlier_token_rate", "channel_sigma_spread", "channel_mean_scale"});
  KeyProfile out;
  out.ar_rho = to_range(check.pair(k, "ar_rho", p, 0.0, 0.999));
  out.student_nu = to_range(check.pair(k, "student_nu", p, 2.5, 1000.0));
  out.outlier_channels = to_range(check.pair(k, "outlier_channels", p, 0.0, 64.0));
  out.outlier_scale = depth_range(check, k, "outlier_scale", p, 1.0, 1000.0);
  out.fixed_sign_fraction = check.number(k, "fixed_sign_fraction", p, 0.0, 1.0);
  out.outlier_token_rate = check.number(k, "outlier_token_rate", p, 0.0, 0.5);
  out.channel_sigma_spread = check.number(k, "channel_sigma_spread", p, 0.0, 3.0);
  out.channel_mean_scale = check.number(k, "channel_mean_scale", p, 0.0, 10.0);
  return out;
}

ValueProfile parse_values(JsonChecker& check, const json& v, const std::string& p) {
  check.expect_keys(v, p, {"token_scale_sigma", "student_nu", "ar_rho"});
  ValueProfile out;
  out.token_scale_sigma = check.number(v, "token_scale_sigma", p, 0.0, 3.0);
  out.student_nu = to_range(check.pair(v, "student_nu", p, 2.5, 1000.0));
  out.ar_rho = check.number(v, "ar_rho", p, 0.0, 0.999);
  return out;
}

void parse_sections(JsonChecker& check, const json& doc, KvProfile& out) {
  if (const json* k = check.object(doc, "keys", "")) out.keys = parse_keys(check, *k, "/keys");
  if (const json* v = check.object(doc, "values", "")) out.values = parse_values(check, *v, "/values");
  if (const json* q = check.object(doc, "queries", "")) {
    check.expect_keys(*q, "/queries", {"outlier_energy", "score_std"});
    out.queries.outlier_energy = check.number(*q, "outlier_energy", "/queries", 0.0, 1.0);
    out.queries.score_std = depth_range(check, *q, "score_std", "/queries", 0.05, 20.0);
  }
  if (const json* s = check.object(doc, "sink", "")) {
    check.expect_keys(*s, "/sink", {"score_margin", "value_scale"});
    out.sink_score_margin = check.number(*s, "score_margin", "/sink", 0.0, 50.0);
    out.sink_value_scale = check.number(*s, "value_scale", "/sink", 0.0, 10.0);
  }
  if (const json* n = check.object(doc, "needle", "")) {
    check.expect_keys(*n, "/needle", {"margin"});
    out.needle_margin = check.number(*n, "margin", "/needle", 0.0, 50.0);
  }
}

json range_json(const Range& r) { return json::array({r.lo, r.hi}); }
json depth_json(const DepthRange& d) { return json{{"shallow", range_json(d.shallow)}, {"deep", range_json(d.deep)}}; }

}  // namespace

KvProfile parse_kv_profile(const json& document) {
  JsonChecker check("KV profile");
  KvProfile out;
  check.expect_keys(document, "",
                    {"schema_version", "name", "description", "keys", "values", "queries", "sink", "needle"});
  if (document.is_object()) {
    check.integer(document, "schema_version", "", 1, 1);
    out.name = check.text(document, "name", "");
    out.description = check.text(document, "description", "");
    parse_sections(check, document, out);
  }
  check.throw_if_errors();
  return out;
}

KvProfile load_kv_profile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot open KV profile " + path);
  json document;
  try {
    document = json::parse(in);
  } catch (const json::parse_error& e) {
    throw std::invalid_argument("KV profile " + path + ": " + e.what());
  }
  return parse_kv_profile(document);
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
