#pragma once
// Element-wise precision of a reconstructed tensor against its reference.
//
// Energies accumulate over every sampled block in double precision:
//   SNR = 10·log10(Σ x² / Σ (x − x̂)²) dB,   relative L2 error = sqrt(Σ (x − x̂)² / Σ x²),
// so relative_l2 = 10^(−SNR/20). An exact reconstruction has infinite SNR and zero error; the
// accumulator reports SNR capped at 200 dB so that JSON and tables stay finite.

#include <span>

namespace lynxsim::accuracy {

class ErrorAccumulator {
public:
  void add(std::span<const float> reference, std::span<const float> approx);
  void merge(const ErrorAccumulator& other);
  double snr_db() const;
  double relative_l2() const;

private:
  double signal_ = 0.0;
  double error_ = 0.0;
};

}  // namespace lynxsim::accuracy
