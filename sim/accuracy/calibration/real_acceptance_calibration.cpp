#include "sim/accuracy/calibration/real_acceptance_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace lynxsim::accuracy {
namespace {

int draft_trials(const RealAcceptance& a) {
  int trials = 0;
  for (const int length : a.accepted_lengths) trials += length + (length < a.k_max ? 1 : 0);
  return trials;
}

std::string line(const AcceptanceCalibration& c) {
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, "%-18s%8d%9.3f%9.3f%8.3f%8d%9.3f\n", c.method.c_str(), c.context,
                c.proxy_acceptance, c.real_acceptance, c.real_standard_error(), c.real_trials, c.miss_ratio());
  return buffer;
}

}  // namespace

double AcceptanceCalibration::real_miss_estimate() const {
  if (real_trials <= 0) return 1.0 - real_acceptance;
  const double n = real_trials;
  return (n * (1.0 - real_acceptance) + 0.5) / (n + 1.0);
}

double AcceptanceCalibration::miss_ratio() const {
  const double proxy_miss = 1.0 - proxy_acceptance;
  return proxy_miss > 0.0 ? real_miss_estimate() / proxy_miss : 1.0;
}

double AcceptanceCalibration::real_standard_error() const {
  return real_trials > 0 ? std::sqrt(real_acceptance * (1.0 - real_acceptance) / real_trials) : 0.0;
}

KvGeometry geometry_of(const llm::LlamaConfig& c, const std::string& model_name) {
  return KvGeometry{model_name, c.n_layers, c.n_kv_heads, c.n_heads, c.head_dim, c.rope_theta};
}

std::vector<AcceptanceCalibration> fit_acceptance_calibration(const RealContextResult& real, const AccuracyResult& proxy) {
  std::vector<AcceptanceCalibration> out;
  for (const auto& a : real.acceptance) {
    for (const auto& p : proxy.acceptance) {
      if (p.method != a.method) continue;
      out.push_back(AcceptanceCalibration{a.method, real.context, p.acceptance_probability, a.per_token(), draft_trials(a)});
    }
  }
  return out;
}

double calibrate_acceptance(double proxy_value_for_model, const AcceptanceCalibration& calibration) {
  if (proxy_value_for_model < 0.0 || proxy_value_for_model > 1.0) {
    throw std::invalid_argument("calibrate_acceptance: the proxy value must be in [0, 1]");
  }
  return 1.0 - std::clamp(calibration.miss_ratio() * (1.0 - proxy_value_for_model), 0.0, 1.0);
}

double real_acceptance_probability(const RealModelResult& result, const std::string& method, int context) {
  const RealContextResult* best = nullptr;
  for (const auto& c : result.contexts) {
    const bool has = std::any_of(c.acceptance.begin(), c.acceptance.end(), [&](const auto& a) { return a.method == method; });
    if (has && (best == nullptr || std::abs(c.context - context) < std::abs(best->context - context))) best = &c;
  }
  if (best == nullptr) throw std::out_of_range("no real acceptance measured for " + method);
  return best->acceptance_of(method).per_token();
}

std::string render_calibration_table(const std::vector<AcceptanceCalibration>& calibrations) {
  char head[160];
  std::snprintf(head, sizeof head, "%-18s%8s%9s%9s%8s%8s%9s\n", "method", "context", "proxy", "real", "+-", "drafts",
                "miss c");
  std::string out = "acceptance calibration (alpha = 1 - c (1 - proxy))\n";
  out += head;
  for (const auto& c : calibrations) out += line(c);
  return out;
}

}  // namespace lynxsim::accuracy
