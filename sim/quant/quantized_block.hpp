#pragma once
// A quantized KV block: one code per element and the fp16 metadata of each group
// (quant_config.hpp gives the equations and the group numbering).

#include <cstdint>
#include <vector>

#include "sim/quant/quant_config.hpp"

namespace lynxsim::quant {

struct QuantizedBlock {
  QuantConfig config;
  int tokens = 0;
  int channels = 0;
  std::vector<std::uint8_t> codes;    // [tokens][channels], each in [0, 2^bits − 1]
  std::vector<std::uint16_t> scales;  // fp16 bits, one per group
  std::vector<std::uint16_t> mins;    // fp16 bits, one per group

  GroupLayout layout() const { return GroupLayout(config, tokens, channels); }
};

}  // namespace lynxsim::quant
