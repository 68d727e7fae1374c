#include "sim/accuracy/kv/delta_state.hpp"

#include <cmath>

namespace lynxsim::accuracy {
namespace {

double softplus(double x) { return x > 20.0 ? x : std::log1p(std::exp(x)); }

double inverse_softplus(double y) { return y + std::log(-std::expm1(-y)); }

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace

void delta_step(float* state, int dk, int dv, const DeltaToken& token) {
  const auto alpha = static_cast<float>(token.alpha);
  const auto beta = static_cast<float>(token.beta);
  std::vector<float> memory(static_cast<std::size_t>(dv), 0.0F);
  for (int i = 0; i < dk; ++i) {
    float* row = state + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
    const float ki = token.k[static_cast<std::size_t>(i)];
    for (int j = 0; j < dv; ++j) {
      row[j] *= alpha;
      memory[static_cast<std::size_t>(j)] += row[j] * ki;
    }
  }
  for (int j = 0; j < dv; ++j) {
    memory[static_cast<std::size_t>(j)] = beta * (token.v[static_cast<std::size_t>(j)] - memory[static_cast<std::size_t>(j)]);
  }
  for (int i = 0; i < dk; ++i) {
    float* row = state + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
    const float ki = token.k[static_cast<std::size_t>(i)];
    for (int j = 0; j < dv; ++j) row[j] += ki * memory[static_cast<std::size_t>(j)];
  }
}

std::vector<double> state_readout(const float* state, int dk, int dv, const std::vector<float>& q) {
  std::vector<double> out(static_cast<std::size_t>(dv), 0.0);
  for (int i = 0; i < dk; ++i) {
    const float* row = state + static_cast<std::size_t>(i) * static_cast<std::size_t>(dv);
    const double qi = q[static_cast<std::size_t>(i)];
    for (int j = 0; j < dv; ++j) out[static_cast<std::size_t>(j)] += qi * row[j];
  }
  return out;
}

std::vector<float> unit_vector(AccuracyRng& rng, int n) {
  std::vector<double> x(static_cast<std::size_t>(n));
  double sum = 0.0;
  for (double& v : x) {
    v = rng.normal();
    sum += v * v;
  }
  const double inv = 1.0 / std::sqrt(sum);
  std::vector<float> out;
  for (const double v : x) out.push_back(static_cast<float>(v * inv));
  return out;
}

DeltaInputs::DeltaInputs(const StateProfile& p, int dk, int dv, std::uint64_t stream_seed)
    : rng_(stream_seed), dk_(dk), dv_(dv), a_std_(p.a_std), b_std_(p.b_std) {
  a_ = rng_.uniform(p.a_lo, p.a_hi);
  const double dt = std::exp(rng_.uniform(std::log(p.dt_lo), std::log(p.dt_hi)));
  dt_bias_ = inverse_softplus(dt);
}

DeltaToken DeltaInputs::next() {
  DeltaToken t;
  t.alpha = std::exp(-a_ * softplus(a_std_ * rng_.normal() + dt_bias_));
  t.beta = sigmoid(b_std_ * rng_.normal());
  t.k = unit_vector(rng_, dk_);
  t.v.resize(static_cast<std::size_t>(dv_));
  for (float& x : t.v) {
    const double z = rng_.normal();
    x = static_cast<float>(z * sigmoid(z));
  }
  return t;
}

std::vector<float> run_delta_rule(DeltaInputs& inputs, int dk, int dv, int tokens) {
  std::vector<float> state(static_cast<std::size_t>(dk) * static_cast<std::size_t>(dv), 0.0F);
  for (int t = 0; t < tokens; ++t) delta_step(state.data(), dk, dv, inputs.next());
  return state;
}

}  // namespace lynxsim::accuracy
