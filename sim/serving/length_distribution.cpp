#include "sim/serving/length_distribution.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>
#include <string>


namespace lynxsim::serving {

void LengthDistribution::validate() const {
  if (min < 1 || max < min) throw std::invalid_argument("length bounds need 1 <= min <= max");
  if (kind == LengthKind::fixed && value < 1) throw std::invalid_argument("fixed length must be >= 1");
  if (kind == LengthKind::lognormal && !(sigma >= 0.0 && std::isfinite(mu))) {
    throw std::invalid_argument("lognormal lengths need a finite mu and sigma >= 0");
  }
  if (kind == LengthKind::empirical && values.empty()) {
    throw std::invalid_argument("empirical lengths need at least one value");
  }
}

int LengthDistribution::sample(RngStream& rng) const {
  double drawn = 0.0;
  switch (kind) {
    case LengthKind::fixed: drawn = value; break;
    case LengthKind::uniform:
      drawn = static_cast<double>(min) +
              static_cast<double>(rng.uniform_int(static_cast<std::uint64_t>(max - min) + 1));
      break;
    case LengthKind::lognormal: drawn = std::round(rng.lognormal(mu, sigma)); break;
    case LengthKind::empirical:
      drawn = values[static_cast<std::size_t>(rng.uniform_int(values.size()))];
      break;
  }
  return static_cast<int>(std::clamp(drawn, static_cast<double>(min), static_cast<double>(max)));
}

}  // namespace lynxsim::serving
