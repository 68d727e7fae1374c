#include "sim/accuracy/metrics/precision_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lynxsim::accuracy {

void ErrorAccumulator::add(std::span<const float> reference, std::span<const float> approx) {
  if (reference.size() != approx.size()) throw std::invalid_argument("ErrorAccumulator: sizes differ");
  double signal = 0.0;
  double error = 0.0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    const double x = reference[i];
    const double e = x - approx[i];
    signal += x * x;
    error += e * e;
  }
  signal_ += signal;
  error_ += error;
}

void ErrorAccumulator::merge(const ErrorAccumulator& other) {
  signal_ += other.signal_;
  error_ += other.error_;
}

double ErrorAccumulator::snr_db() const {
  if (error_ <= 0.0) return 200.0;
  if (signal_ <= 0.0) return -200.0;
  return std::min(200.0, 10.0 * std::log10(signal_ / error_));
}

double ErrorAccumulator::relative_l2() const {
  if (signal_ <= 0.0) return error_ > 0.0 ? 1.0 : 0.0;
  return std::sqrt(error_ / signal_);
}

}  // namespace lynxsim::accuracy
