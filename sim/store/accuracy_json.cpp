#include "sim/store/accuracy_json.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace lynxsim::store {
namespace {

using accuracy::AccuracyResult;
using accuracy::AccuracySampling;
using accuracy::KvGeometry;
using accuracy::LayerKindSummary;
using accuracy::StateCheckpoint;
using accuracy::StatePrecision;
using accuracy::MethodAcceptance;
using accuracy::MethodPrecision;
using accuracy::NeedlePoint;

using nlohmann::json;

json row_to_json(const MethodPrecision& r) {
  json needle = json::array();
  for (const auto& p : r.needle) {
    needle.push_back({{"context", p.context}, {"trials", p.trials}, {"found", p.found}, {"accuracy", p.accuracy()}});
  }
  return {{"method", r.method},           {"variant", r.variant},
          {"bits_per_element", r.bits_per_element}, {"key_snr_db", r.key_snr_db},
          {"value_snr_db", r.value_snr_db}, {"key_rel_l2", r.key_rel_l2},
          {"value_rel_l2", r.value_rel_l2}, {"attention_kl", r.attention_kl},
          {"topk_recall", r.topk_recall},   {"output_rel_error", r.output_rel_error},
          {"top1_agreement", r.top1_agreement}, {"queries", r.queries},
          {"needle_accuracy", r.needle_accuracy()}, {"needle", needle}};
}

MethodPrecision row_from_json(const json& j) {
  MethodPrecision r;
  r.method = j.at("method").get<std::string>();
  r.variant = j.at("variant").get<std::string>();
  r.bits_per_element = j.at("bits_per_element").get<double>();
  r.key_snr_db = j.at("key_snr_db").get<double>();
  r.value_snr_db = j.at("value_snr_db").get<double>();
  r.key_rel_l2 = j.at("key_rel_l2").get<double>();
  r.value_rel_l2 = j.at("value_rel_l2").get<double>();
  r.attention_kl = j.at("attention_kl").get<double>();
  r.topk_recall = j.at("topk_recall").get<double>();
  r.output_rel_error = j.at("output_rel_error").get<double>();
  r.top1_agreement = j.at("top1_agreement").get<double>();
  r.queries = j.at("queries").get<int>();
  for (const auto& p : j.at("needle")) {
    r.needle.push_back(NeedlePoint{p.at("context").get<int>(), p.at("trials").get<int>(), p.at("found").get<int>()});
  }
  return r;
}

json state_row_to_json(const StatePrecision& r) {
  json continued = json::array();
  for (const auto& c : r.continued) {
    continued.push_back({{"steps", c.steps}, {"state_rel_l2", c.state_rel_l2}, {"readout_rel_error", c.readout_rel_error}});
  }
  return {{"method", r.method}, {"variant", r.variant}, {"bits_per_element", r.bits_per_element},
          {"state_snr_db", r.state_snr_db}, {"state_rel_l2", r.state_rel_l2},
          {"readout_rel_error", r.readout_rel_error}, {"readouts", r.readouts}, {"continued", continued}};
}

StatePrecision state_row_from_json(const json& j) {
  StatePrecision r;
  r.method = j.at("method").get<std::string>();
  r.variant = j.at("variant").get<std::string>();
  r.bits_per_element = j.at("bits_per_element").get<double>();
  r.state_snr_db = j.at("state_snr_db").get<double>();
  r.state_rel_l2 = j.at("state_rel_l2").get<double>();
  r.readout_rel_error = j.at("readout_rel_error").get<double>();
  r.readouts = j.at("readouts").get<int>();
  for (const auto& c : j.at("continued")) {
    r.continued.push_back(StateCheckpoint{c.at("steps").get<int>(), c.at("state_rel_l2").get<double>(),
                                          c.at("readout_rel_error").get<double>()});
  }
  return r;
}

json layer_kinds_to_json(const std::vector<LayerKindSummary>& kinds) {
  json out = json::array();
  for (const auto& k : kinds) {
    out.push_back({{"layer_kind", k.layer_kind}, {"tensor", k.tensor}, {"layers", k.layers}, {"tokens", k.tokens}});
  }
  return out;
}

// Entries written before layer kinds were recorded lack these three fields.
void layer_kinds_from_json(const json& j, AccuracyResult& r) {
  for (const auto& k : j.value("layer_kinds", json::array())) {
    r.layer_kinds.push_back(LayerKindSummary{k.at("layer_kind").get<std::string>(), k.at("tensor").get<std::string>(),
                                             k.at("layers").get<int>(), k.at("tokens").get<int>()});
  }
  r.sampled_state_layers = j.value("sampled_state_layers", std::vector<int>{});
  for (const auto& row : j.value("state_rows", json::array())) r.state_rows.push_back(state_row_from_json(row));
}

json sampling_to_json(const AccuracySampling& s) {
  return {{"layers", s.layers},           {"kv_heads", s.kv_heads},
          {"queries_per_head", s.queries_per_head}, {"top_k", s.top_k},
          {"needle_probes", s.needle_probes}, {"needle_depths", s.needle_depths},
          {"needle_min_context", s.needle_min_context}, {"proxy_vocab", s.proxy_vocab}};
}

AccuracySampling sampling_from_json(const json& j) {
  AccuracySampling s;
  s.layers = j.at("layers").get<int>();
  s.kv_heads = j.at("kv_heads").get<int>();
  s.queries_per_head = j.at("queries_per_head").get<int>();
  s.top_k = j.at("top_k").get<int>();
  s.needle_probes = j.at("needle_probes").get<int>();
  s.needle_depths = j.at("needle_depths").get<std::vector<double>>();
  s.needle_min_context = j.at("needle_min_context").get<int>();
  s.proxy_vocab = j.at("proxy_vocab").get<int>();
  return s;
}

}  // namespace

json result_to_json(const AccuracyResult& r) {
  const KvGeometry& g = r.geometry;
  json rows = json::array();
  for (const auto& row : r.rows) rows.push_back(row_to_json(row));
  json state_rows = json::array();
  for (const auto& row : r.state_rows) state_rows.push_back(state_row_to_json(row));
  json acceptance = json::array();
  for (const auto& a : r.acceptance) {
    acceptance.push_back({{"method", a.method}, {"acceptance_probability", a.acceptance_probability}, {"samples", a.samples}});
  }
  return {{"schema_version", r.schema_version},
          {"geometry",
           {{"model", g.model}, {"num_layers", g.num_layers}, {"num_kv_heads", g.num_kv_heads},
            {"num_heads", g.num_heads}, {"head_dim", g.head_dim}, {"rope_theta", g.rope_theta}}},
          {"context", r.context}, {"seed", r.seed}, {"source", r.source},
          {"sampling", sampling_to_json(r.sampling)}, {"sampled_layers", r.sampled_layers},
          {"sampled_kv_heads", r.sampled_kv_heads}, {"rows", rows}, {"acceptance", acceptance},
          {"layer_kinds", layer_kinds_to_json(r.layer_kinds)}, {"sampled_state_layers", r.sampled_state_layers},
          {"state_rows", state_rows}};
}

AccuracyResult result_from_json(const json& j) {
  try {
    AccuracyResult r;
    r.schema_version = j.at("schema_version").get<int>();
    if (r.schema_version != 1) throw std::invalid_argument("unsupported schema_version");
    const json& g = j.at("geometry");
    r.geometry = KvGeometry{g.at("model").get<std::string>(), g.at("num_layers").get<int>(), g.at("num_kv_heads").get<int>(),
                            g.at("num_heads").get<int>(), g.at("head_dim").get<int>(), g.at("rope_theta").get<double>()};
    r.context = j.at("context").get<int>();
    r.seed = j.at("seed").get<std::uint64_t>();
    r.source = j.at("source").get<std::string>();
    r.sampling = sampling_from_json(j.at("sampling"));
    r.sampled_layers = j.at("sampled_layers").get<std::vector<int>>();
    r.sampled_kv_heads = j.at("sampled_kv_heads").get<std::vector<int>>();
    for (const auto& row : j.at("rows")) r.rows.push_back(row_from_json(row));
    for (const auto& a : j.at("acceptance")) {
      r.acceptance.push_back(MethodAcceptance{a.at("method").get<std::string>(), a.at("acceptance_probability").get<double>(),
                                              a.at("samples").get<int>()});
    }
    layer_kinds_from_json(j, r);
    return r;
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("accuracy result JSON: ") + e.what());
  }
}

}  // namespace lynxsim::store
