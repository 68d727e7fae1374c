// The "methods" section: a non-empty list whose items are preset names ("int8", "lynx-2+2+4") or
// objects {"preset": P, ...} that override fields of preset P, with the keys of the "method" and
// "cachegen" tables (source_fields.cpp; throughputs are BF16 bytes coded per second per GPU).
// Giving "planes" without "bits" sets bits to their sum; giving "bits" to a one-plane preset
// without "planes" sets planes to [bits]. The result must pass quant::validate_method, and
// method names must be unique within a scenario.

#include <cmath>
#include <fmt/format.h>
#include <numeric>
#include <set>

#include "sim/core/unit_parse.hpp"
#include "sim/scenario/input_limits.hpp"
#include "sim/scenario/json_fields.hpp"
#include "sim/scenario/scenario_sections.hpp"

namespace lynxsim::scenario {
namespace {

using quant::MethodSpec;

std::optional<quant::MethodSpec> preset(const std::string& name, const std::string& path,
                                     IssueList& issues) {
  try {
    return quant::method_from_name(name);
  } catch (const std::invalid_argument& e) {
    issues.add(path, e.what());
  }
  return std::nullopt;
}

std::optional<std::vector<int>> read_planes(ObjectReader& r) {
  const auto* v = r.get(field_section("method")["planes"].key);
  if (v == nullptr) return std::nullopt;
  std::vector<int> planes;
  const bool ok = v->is_array() && !v->empty() && std::all_of(v->begin(), v->end(), [](const auto& b) {
    return b.is_number_integer() && b.template get<std::int64_t>() >= 1 &&
           b.template get<std::int64_t>() <= 16;
  });
  if (!ok) {
    r.issues().add(r.child("planes"), fmt::format("expected a non-empty array of plane widths "
                                                  "in bits (1..16), got {}", describe_value(*v)));
    return std::nullopt;
  }
  for (const auto& b : *v) planes.push_back(b.get<int>());
  return planes;
}

// A positive finite number or "amax".
void read_tensor_scale(ObjectReader& r, quant::TensorScale& scale) {
  const auto* v = r.get(field_section("method")["tensor_scale"].key);
  if (v == nullptr) return;
  if (v->is_string() && v->get<std::string>() == "amax") {
    scale.calibrated = true;
    return;
  }
  if (v->is_number() && v->get<double>() > 0.0 && std::isfinite(v->get<double>())) {
    scale = {false, v->get<double>()};
    return;
  }
  r.issues().add(r.child("tensor_scale"), fmt::format("expected a positive finite scale or \"amax\", got {}",
                                                      describe_value(*v)));
}

nlohmann::json tensor_scale_json(const quant::TensorScale& scale) {
  return scale.calibrated ? nlohmann::json("amax") : nlohmann::json(scale.value);
}

void read_cachegen(ObjectReader& parent, quant::CacheGenParams& p) {
  const FieldSection& F = field_section("cachegen");
  const auto* v = parent.get(field_section("method")["cachegen"].key);
  if (v == nullptr) return;
  ObjectReader r(*v, parent.child("cachegen"), parent.issues());
  if (!r.valid()) return;
  p.chunk_tokens = r.count(F["chunk_tokens"]).value_or(p.chunk_tokens);
  if (const auto t = r.time(F["slo"])) p.slo_s = t->seconds();
  if (const auto b = r.bit_rate(F["initial_bandwidth"])) {
    p.initial_bandwidth_bytes_per_s = b->to_bytes().value;
  }
  if (const auto b = r.bit_rate(F["encode_throughput"])) p.encode_mb_per_s = b->to_bytes().value / 1e6;
  if (const auto b = r.bit_rate(F["decode_throughput"])) p.decode_mb_per_s = b->to_bytes().value / 1e6;
  r.finish();
}

nlohmann::json cachegen_json(const quant::CacheGenParams& p) {
  return {{"chunk_tokens", p.chunk_tokens},
          {"slo", time_text(Time::from_seconds(p.slo_s))},
          {"initial_bandwidth", format_bit_rate(BytesPerSecond{p.initial_bandwidth_bytes_per_s}.to_bits())},
          {"encode_throughput", format_bit_rate(BytesPerSecond{p.encode_mb_per_s * 1e6}.to_bits())},
          {"decode_throughput", format_bit_rate(BytesPerSecond{p.decode_mb_per_s * 1e6}.to_bits())}};
}

void read_overrides(ObjectReader& r, quant::MethodSpec& m) {
  const FieldSection& F = field_section("method");
  if (const auto name = r.string(F["name"])) m.name = *name;
  const auto bits = r.count(F["bits"]);
  const auto planes = read_planes(r);
  if (planes && planes->size() != 1 && m.family != quant::MethodFamily::lynx) {
    r.issues().add(r.child("planes"), fmt::format("method \"{}\" sends its code as one plane; only "
                                                  "lynx methods split it into planes, got {} planes",
                                                  m.name, planes->size()));
  }
  if (planes) m.planes = *planes;
  if (bits) m.bits = *bits;
  if (planes && !bits) m.bits = std::accumulate(planes->begin(), planes->end(), 0);
  if (bits && !planes && m.planes.size() == 1) m.planes = {m.bits};
  if (const auto v = r.count(F["decode_after_planes"])) m.decode_after_planes = *v;
  if (const auto v = r.count(F["group_size"])) m.group_size = *v;
  if (const auto v = r.count(F["kivi_window"])) m.kivi_window = *v;
  if (const auto v = r.count(F["kivi_group"])) m.kivi_group = *v;
  if (const auto v = r.count(F["cachegen_level"])) m.cachegen_level = *v;
  if (const auto v = r.number(F["acceptance"])) m.acceptance = *v;
  if (const auto v = r.string(F["description"])) m.description = *v;
  read_cachegen(r, m.cachegen);
  read_tensor_scale(r, m.tensor_scale);
  if (r.get("anchor_scheme") != nullptr) {
    m.anchor_scheme = r.choice<quant::AnchorScheme>(
        F["anchor_scheme"], {{"midpoint", quant::AnchorScheme::midpoint},
                             {"quantspec", quant::AnchorScheme::quantspec},
                             {"cell_residual", quant::AnchorScheme::cell_residual}});
  }
}

const char* anchor_scheme_name(quant::AnchorScheme scheme) {
  switch (scheme) {
    case quant::AnchorScheme::midpoint: return "midpoint";
    case quant::AnchorScheme::quantspec: return "quantspec";
    case quant::AnchorScheme::cell_residual: return "cell_residual";
  }
  return "midpoint";
}

nlohmann::json method_json(const std::string& preset_name, const quant::MethodSpec& m) {
  nlohmann::json j = {
      {"preset", preset_name},
      {"name", m.name},
      {"bits", m.bits},
      {"planes", m.planes},
      {"decode_after_planes", m.decode_after_planes},
      {"group_size", m.group_size},
      {"kivi_window", m.kivi_window},
      {"kivi_group", m.kivi_group},
      {"anchor_scheme", anchor_scheme_name(m.anchor_scheme)},
      {"cachegen_level", m.cachegen_level},
      {"description", m.description}};
  if (m.family == quant::MethodFamily::cachegen) j["cachegen"] = cachegen_json(m.cachegen);
  if (m.format) j["tensor_scale"] = tensor_scale_json(m.tensor_scale);
  if (m.acceptance) j["acceptance"] = *m.acceptance;
  return j;
}

std::optional<quant::MethodSpec> read_method(const nlohmann::json& item, const std::string& path,
                                          IssueList& issues, nlohmann::json& resolved) {
  if (item.is_string()) {
    if (!check_name(item.get<std::string>(), path, issues)) return std::nullopt;
    auto m = preset(item.get<std::string>(), path, issues);
    if (m) resolved = method_json(item.get<std::string>(), *m);
    return m;
  }
  ObjectReader r(item, path, issues);
  if (!r.valid()) return std::nullopt;
  const auto preset_name = r.string(field_section("method")["preset"]);
  auto m = preset_name ? preset(*preset_name, r.child("preset"), issues) : std::nullopt;
  quant::MethodSpec scratch;
  const std::size_t issues_before = issues.size();
  read_overrides(r, m ? *m : scratch);
  r.finish();
  if (issues.size() != issues_before) return std::nullopt;
  if (m) resolved = method_json(*preset_name, *m);
  return m;
}

}  // namespace

std::vector<quant::MethodSpec> read_methods(const nlohmann::json& value, const std::string& path,
                                         IssueList& issues, nlohmann::json& resolved) {
  std::vector<quant::MethodSpec> methods;
  if (!value.is_array() || value.empty()) {
    issues.add(path, fmt::format("expected a non-empty array of methods, got {}",
                                 describe_value(value)));
    return methods;
  }
  resolved = nlohmann::json::array();
  std::set<std::string> names;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string item_path = pointer_child(path, std::to_string(i));
    nlohmann::json item_resolved;
    const auto m = read_method(value[i], item_path, issues, item_resolved);
    if (!m) continue;
    for (const auto& problem : quant::validate_method(*m)) issues.add(item_path, problem);
    if (!names.insert(m->name).second) {
      issues.add(item_path, fmt::format("duplicate method name \"{}\" (give it a \"name\")", m->name));
    }
    methods.push_back(*m);
    resolved.push_back(item_resolved);
  }
  return methods;
}

}  // namespace lynxsim::scenario
