#include "sim/store/real_model_json.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace lynxsim::store {
namespace {

using accuracy::PasskeyPoint;
using accuracy::RealAcceptance;
using accuracy::RealContextResult;
using accuracy::RealModelResult;
using accuracy::RealPasskeyRow;
using accuracy::RealVariantRow;

using nlohmann::json;

json row_json(const RealVariantRow& r) {
  return json{{"method", r.method},
              {"variant", r.variant},
              {"bits_per_element", r.bits_per_element},
              {"positions", r.positions},
              {"agreements", r.agreements},
              {"text_agreements", r.text_agreements},
              {"agreement", r.agreement()},
              {"text_agreement", r.text_agreement()},
              {"perplexity", r.perplexity},
              {"perplexity_delta", r.perplexity_delta}};
}

json acceptance_json(const RealAcceptance& a) {
  json histograms = json::array();
  for (int k = 1; k <= a.k_max; ++k) histograms.push_back(a.histogram(k));
  return json{{"method", a.method},
              {"k_max", a.k_max},
              {"positions", a.positions},
              {"accepted_lengths", a.accepted_lengths},
              {"per_token", a.per_token()},
              {"histograms", histograms}};
}

json passkey_json(const RealPasskeyRow& p) {
  json points = json::array();
  for (const auto& q : p.points) {
    points.push_back(json{{"context", q.context}, {"depth", q.depth}, {"trials", q.trials}, {"found", q.found},
                          {"accuracy", q.accuracy()}});
  }
  return json{{"method", p.method}, {"variant", p.variant}, {"points", points}};
}

RealContextResult context_from(const json& j) {
  RealContextResult c{j.at("context").get<int>(), j.at("continuation_tokens").get<int>(),
                      j.at("reference_perplexity").get<double>(), {}, {}};
  for (const auto& r : j.at("rows")) {
    c.rows.push_back(RealVariantRow{r.at("method").get<std::string>(), r.at("variant").get<std::string>(),
                                    r.at("bits_per_element").get<double>(), r.at("positions").get<int>(),
                                    r.at("agreements").get<int>(), r.at("text_agreements").get<int>(),
                                    r.at("perplexity").get<double>(), r.at("perplexity_delta").get<double>()});
  }
  for (const auto& a : j.at("acceptance")) {
    c.acceptance.push_back(RealAcceptance{a.at("method").get<std::string>(), a.at("k_max").get<int>(),
                                          a.at("positions").get<std::vector<int>>(),
                                          a.at("accepted_lengths").get<std::vector<int>>()});
  }
  return c;
}

RealPasskeyRow passkey_from(const json& j) {
  RealPasskeyRow p{j.at("method").get<std::string>(), j.at("variant").get<std::string>(), {}};
  for (const auto& q : j.at("points")) {
    p.points.push_back(PasskeyPoint{q.at("context").get<int>(), q.at("depth").get<double>(), q.at("trials").get<int>(),
                                    q.at("found").get<int>()});
  }
  return p;
}

}  // namespace

json real_result_to_json(const RealModelResult& r) {
  json contexts = json::array();
  for (const auto& c : r.contexts) {
    json rows = json::array();
    for (const auto& row : c.rows) rows.push_back(row_json(row));
    json acceptance = json::array();
    for (const auto& a : c.acceptance) acceptance.push_back(acceptance_json(a));
    contexts.push_back(json{{"context", c.context}, {"continuation_tokens", c.continuation_tokens},
                            {"reference_perplexity", c.reference_perplexity}, {"rows", rows}, {"acceptance", acceptance}});
  }
  json passkey = json::array();
  for (const auto& p : r.passkey) passkey.push_back(passkey_json(p));
  return json{{"schema_version", r.schema_version}, {"model", r.model}, {"text", r.text},
              {"text_tokens", r.text_tokens}, {"seed", r.seed}, {"contexts", contexts}, {"passkey", passkey}};
}

RealModelResult real_result_from_json(const json& j) {
  try {
    RealModelResult r;
    r.schema_version = j.at("schema_version").get<int>();
    if (r.schema_version != 1) throw std::invalid_argument("unsupported schema_version");
    r.model = j.at("model").get<std::string>();
    r.text = j.at("text").get<std::string>();
    r.text_tokens = j.at("text_tokens").get<int>();
    r.seed = j.at("seed").get<std::uint64_t>();
    for (const auto& c : j.at("contexts")) r.contexts.push_back(context_from(c));
    for (const auto& p : j.at("passkey")) r.passkey.push_back(passkey_from(p));
    return r;
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("real-model result JSON: ") + e.what());
  }
}

}  // namespace lynxsim::store
