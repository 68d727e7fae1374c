#include "sim/quant/input_check.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace lynxsim::quant {

void reject_non_finite(BlockView input, int token_begin, int token_end) {
  for (int t = token_begin; t < token_end; ++t) {
    for (int c = 0; c < input.channels; ++c) {
      const float value = input.at(t, c);
      if (!std::isfinite(value)) {
        throw std::invalid_argument("quantization: non-finite input (" + std::string(std::isnan(value) ? "NaN" : "infinity") +
                                    ") at token " + std::to_string(t) + ", channel " + std::to_string(c));
      }
    }
  }
}

}  // namespace lynxsim::quant
