#include "sim/accuracy/calibration/calibration_table.hpp"

#include <cstdlib>

namespace lynxsim::accuracy {

const AcceptanceCalibration* CalibrationFile::nearest(const std::string& method, int context) const {
  const auto distance = [context](const AcceptanceCalibration& e) {
    return std::abs(static_cast<long long>(e.context) - context);
  };
  const AcceptanceCalibration* best = nullptr;
  for (const auto& e : entries) {
    if (e.method != method) continue;
    if (best == nullptr || distance(e) < distance(*best) ||
        (distance(e) == distance(*best) && e.context < best->context)) {
      best = &e;
    }
  }
  return best;
}

}  // namespace lynxsim::accuracy
