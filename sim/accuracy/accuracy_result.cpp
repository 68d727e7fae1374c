#include "sim/accuracy/accuracy_result.hpp"

#include <sstream>
#include <stdexcept>

namespace lynxsim::accuracy {

void AccuracySampling::validate() const {
  const auto fail = [](const std::string& what) { throw std::invalid_argument("accuracy sampling: " + what); };
  if (layers < 1 || kv_heads < 1) fail("layers and kv_heads must be >= 1");
  if (queries_per_head < 1) fail("queries_per_head must be >= 1");
  if (top_k < 1) fail("top_k must be >= 1");
  if (needle_probes < 0) fail("needle_probes must be >= 0");
  for (const double d : needle_depths) {
    if (!(d >= 0.0 && d <= 1.0)) fail("needle depths must lie in [0, 1]");
  }
  if (needle_min_context < 4) fail("needle_min_context must be >= 4");
  if (proxy_vocab < 2) fail("proxy_vocab must be >= 2");
}

std::string AccuracySampling::canonical() const {
  std::ostringstream out;
  out.precision(17);
  out << "sampling{layers=" << layers << ",kv_heads=" << kv_heads << ",queries=" << queries_per_head
      << ",top_k=" << top_k << ",needle_probes=" << needle_probes << ",depths=";
  for (const double d : needle_depths) out << d << ";";
  out << ",needle_min_context=" << needle_min_context << ",proxy_vocab=" << proxy_vocab << "}";
  return out.str();
}

std::string MethodPrecision::label() const { return variant == "anchor" ? method + " anchor" : method; }
std::string StatePrecision::label() const { return variant == "anchor" ? method + " anchor" : method; }

const MethodPrecision& AccuracyResult::row(const std::string& method, const std::string& variant) const {
  for (const auto& r : rows) {
    if (r.method == method && r.variant == variant) return r;
  }
  throw std::out_of_range("accuracy result has no row " + method + " (" + variant + ")");
}

double AccuracyResult::acceptance_probability(const std::string& method) const {
  for (const auto& a : acceptance) {
    if (a.method == method) return a.acceptance_probability;
  }
  throw std::out_of_range("accuracy result has no acceptance probability for " + method);
}

}  // namespace lynxsim::accuracy
