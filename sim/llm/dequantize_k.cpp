#include "sim/llm/dequantize_k.hpp"

#include "sim/llm/dequantize.hpp"

namespace lynxsim::llm {
namespace {

float half_at(const std::uint8_t* p) {
  return f16_to_float(static_cast<std::uint16_t>(p[0] | (p[1] << 8)));
}

void scale_min_k4(int s, const std::uint8_t* q, int& scale, int& min) {
  if (s < 4) {
    scale = q[s] & 63;
    min = q[s + 4] & 63;
  } else {
    scale = (q[s + 4] & 0xF) | ((q[s - 4] >> 6) << 4);
    min = (q[s + 4] >> 4) | ((q[s] >> 6) << 4);
  }
}

}  // namespace

void block_q4_k(const std::uint8_t* block, float* y) {
  const float d = half_at(block);
  const float dmin = half_at(block + 2);
  const std::uint8_t* scales = block + 4;
  const std::uint8_t* q = block + 16;
  for (int pair = 0; pair < 4; ++pair) {
    int sc = 0;
    int m = 0;
    scale_min_k4(2 * pair, scales, sc, m);
    const float d1 = d * static_cast<float>(sc);
    const float m1 = dmin * static_cast<float>(m);
    scale_min_k4(2 * pair + 1, scales, sc, m);
    const float d2 = d * static_cast<float>(sc);
    const float m2 = dmin * static_cast<float>(m);
    for (int l = 0; l < 32; ++l) {
      y[l] = d1 * static_cast<float>(q[l] & 0xF) - m1;
      y[l + 32] = d2 * static_cast<float>(q[l] >> 4) - m2;
    }
    q += 32;
    y += 64;
  }
}

void block_q6_k(const std::uint8_t* block, float* y) {
  const std::uint8_t* ql = block;
  const std::uint8_t* qh = block + 128;
  const auto* sc = reinterpret_cast<const std::int8_t*>(block + 192);
  const float d = half_at(block + 208);
  for (int half = 0; half < 2; ++half) {
    for (int l = 0; l < 32; ++l) {
      const int is = l / 16;
      const int q1 = ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
      const int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
      const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
      const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
      y[l] = d * static_cast<float>(sc[is]) * static_cast<float>(q1);
      y[l + 32] = d * static_cast<float>(sc[is + 2]) * static_cast<float>(q2);
      y[l + 64] = d * static_cast<float>(sc[is + 4]) * static_cast<float>(q3);
      y[l + 96] = d * static_cast<float>(sc[is + 6]) * static_cast<float>(q4);
    }
    y += 128;
    ql += 64;
    qh += 32;
    sc += 8;
  }
}

}  // namespace lynxsim::llm
