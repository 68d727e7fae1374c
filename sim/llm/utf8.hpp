#pragma once
// UTF-8 sequence lengths for the tokenizers (tokenizer.cpp, spm_encoder.cpp).

#include <cstddef>

namespace lynxsim::llm {

// Bytes in the UTF-8 sequence that starts with `lead` (1 for a byte that cannot start one).
inline std::size_t utf8_length(unsigned char lead) {
  if (lead >= 0xF0 && lead < 0xF8) return 4;
  if (lead >= 0xE0) return lead < 0xF0 ? 3 : 1;
  if (lead >= 0xC0) return 2;
  return 1;
}

}  // namespace lynxsim::llm
