#pragma once
// Dequantization of ggml's k-quant super-blocks of 256 values (used by Q4_K_M files).
//
//   Q4_K (144 bytes): d, dmin (f16), 12 bytes of packed 6-bit scales sc_s and mins m_s for eight
//        sub-blocks of 32, then 128 bytes of nibbles. Sub-block pair (2i, 2i+1) takes the low /
//        high nibbles of bytes 32i..32i+31:   x = (d sc_s) q - (dmin m_s).
//        Scales/mins: for s < 4 sc = b[s] & 63, m = b[s+4] & 63; for s >= 4
//        sc = (b[s+4] & 15) | (b[s-4] >> 6) << 4, m = (b[s+4] >> 4) | (b[s] >> 6) << 4.
//   Q6_K (210 bytes): 128 bytes ql (low 4 bits), 64 bytes qh (high 2 bits), 16 signed 8-bit
//        scales (one per 16 values), d (f16):   x = (d sc) (q - 32), q = ql | qh << 4 in [0, 63].
//        Each half of 128 values reads ql[0..63], qh[0..31], scales[0..7]: value l + 32 k
//        (k = 0..3, l < 32) takes the low nibble of ql[l + 32 (k & 1)] (high nibble for k >= 2),
//        bits 2k..2k+1 of qh[l], and scale 2k + l / 16.
// The products are formed in float in ggml's order (d times the scale first), so the values equal
// ggml's reference dequantize_row_q4_K / dequantize_row_q6_K.

#include <cstdint>

namespace lynxsim::llm {

void block_q4_k(const std::uint8_t* block, float* y);
void block_q6_k(const std::uint8_t* block, float* y);

}  // namespace lynxsim::llm
