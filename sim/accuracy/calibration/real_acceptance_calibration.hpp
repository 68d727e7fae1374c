#pragma once
// From the acceptance proxy to real acceptance.
//
// The serving model needs, per speculative method, the per-token probability alpha that a draft
// token made with the anchor KV is accepted by the full KV. For SmolLM2-135M it is measured
// (real_model_eval.hpp) and used directly: real_acceptance_probability(). For the other models only
// the proxy p (accuracy_run.hpp: agreement of a random readout of one head's attention output) is
// available, and it is pessimistic (docs/accuracy.md). The calibration is fitted on SmolLM2, where
// both exist for the same method and context: the proxy runs on SmolLM2's geometry
// (geometry_of(config)) with the synthetic KV, and the miss rates are compared,
//   c = m_smol / (1 − p_smol),        alpha_model ≈ 1 − clamp(c · (1 − p_model), 0, 1),
// where m_smol is SmolLM2's miss rate estimated from n draft trials with x misses as the mean of its
// Jeffreys posterior, (x + 1/2) / (n + 1): a method whose anchor was never rejected in n trials gets
// a small positive miss rate (about 1 / 2n) instead of exactly 0, so c never collapses to 0 merely
// because too few drafts were observed. Working on miss rates keeps a lossless anchor (p = 1) at
// alpha = 1 and never leaves [0, 1].
// Assumptions: the proxy's error scales the miss rate by the same factor on every model (the
// factor reflects how much a real LM head and residual stream dilute one head's attention error,
// which depends on the model's depth, width and vocabulary: a first-order transfer, not a law); the
// factor is per method because the anchor's error structure differs per method. Limits: SmolLM2 is
// small and its per-token acceptance is estimated from a limited number of draft windows (the
// binomial standard error is printed with the fit); when the proxy's miss rate is 0 the ratio is
// undefined and c = 1.

#include <string>
#include <vector>

#include "sim/accuracy/accuracy_result.hpp"
#include "sim/accuracy/real_model/real_model_result.hpp"
#include "sim/llm/llama_config.hpp"

namespace lynxsim::accuracy {

struct AcceptanceCalibration {
  std::string method;
  int context = 0;
  double proxy_acceptance = 0.0;  // accuracy layer's proxy on SmolLM2's geometry
  double real_acceptance = 0.0;   // per-token alpha measured on SmolLM2
  int real_trials = 0;            // draft tokens the real alpha rests on
  double real_miss_estimate() const;  // m above
  double miss_ratio() const;          // c above
  double real_standard_error() const;  // sqrt(alpha (1 − alpha) / trials)
};

KvGeometry geometry_of(const llm::LlamaConfig& config, const std::string& model_name);

// One calibration per speculative method present in both results.
std::vector<AcceptanceCalibration> fit_acceptance_calibration(const RealContextResult& real, const AccuracyResult& proxy);

// alpha for another model from its proxy value.
double calibrate_acceptance(double proxy_value_for_model, const AcceptanceCalibration& calibration);

// SmolLM2's measured per-token acceptance of `method` at the measured context nearest to `context`;
// throws std::out_of_range when the method was not measured.
double real_acceptance_probability(const RealModelResult& result, const std::string& method, int context);

std::string render_calibration_table(const std::vector<AcceptanceCalibration>& calibrations);

}  // namespace lynxsim::accuracy
