#pragma once
// Fast reconstruction of a per-token-grouped code from its top bits (the Lynx anchor).
//
// Same arithmetic as quant::reconstruct_from_planes (planes.hpp) with the midpoint rule: keeping the
// top a of b bits, level = float((q >> (b − a)) << (b − a)) + (2^(b−a) − 1)/2 and x̂ = level·s + m in
// float32, but the fp16 group parameters are decoded once per group instead of once per element, and
// no plane arrays are materialized. Bit-identical to the reference (a test checks it); per-token
// groups only (the layout of every plane-split method here).

#include "sim/quant/quantized_block.hpp"

namespace lynxsim::accuracy {

// out receives tokens·channels floats; kept_bits in [1, bits].
void reconstruct_top_bits(const quant::QuantizedBlock& block, int kept_bits, float* out);

}  // namespace lynxsim::accuracy
