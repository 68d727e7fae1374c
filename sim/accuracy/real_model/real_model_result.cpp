#include "sim/accuracy/real_model/real_model_result.hpp"

#include <algorithm>
#include <stdexcept>

namespace lynxsim::accuracy {
namespace {

std::string label_of(const std::string& method, const std::string& variant) {
  return variant == "anchor" ? method + " anchor" : method;
}

}  // namespace

double RealAcceptance::per_token() const {
  double accepted = 0.0;
  double trials = 0.0;
  for (const int length : accepted_lengths) {
    accepted += length;
    trials += length + (length < k_max ? 1 : 0);
  }
  return trials > 0.0 ? accepted / trials : 0.0;
}

std::vector<int> RealAcceptance::histogram(int k) const {
  if (k < 1 || k > k_max) throw std::invalid_argument("acceptance histogram: k must be in 1..k_max");
  std::vector<int> counts(static_cast<std::size_t>(k) + 1, 0);
  for (const int length : accepted_lengths) ++counts[static_cast<std::size_t>(std::min(length, k))];
  return counts;
}

double RealAcceptance::mean_accepted(int k) const {
  if (accepted_lengths.empty()) return 0.0;
  double sum = 0.0;
  for (const int length : accepted_lengths) sum += std::min(length, k);
  return sum / static_cast<double>(accepted_lengths.size());
}

std::string RealVariantRow::label() const { return label_of(method, variant); }

std::string RealPasskeyRow::label() const { return label_of(method, variant); }

double RealPasskeyRow::accuracy() const {
  int trials = 0;
  int found = 0;
  for (const auto& p : points) {
    trials += p.trials;
    found += p.found;
  }
  return trials > 0 ? static_cast<double>(found) / trials : 0.0;
}

const RealVariantRow& RealContextResult::row(const std::string& method, const std::string& variant) const {
  for (const auto& r : rows) {
    if (r.method == method && r.variant == variant) return r;
  }
  throw std::out_of_range("real-model result has no row " + label_of(method, variant));
}

const RealAcceptance& RealContextResult::acceptance_of(const std::string& method) const {
  for (const auto& a : acceptance) {
    if (a.method == method) return a;
  }
  throw std::out_of_range("real-model result has no acceptance for " + method);
}

const RealContextResult& RealModelResult::at_context(int context) const {
  for (const auto& c : contexts) {
    if (c.context == context) return c;
  }
  throw std::out_of_range("real-model result has no context " + std::to_string(context));
}

}  // namespace lynxsim::accuracy
