#pragma once
// Rotary position embedding (RoPE) in the "rotate half" layout of Llama and Hugging Face.
//
// Channel pairs are (i, i + d/2) for i < d/2, rotated by the angle position · theta^(−2i/d):
//   x'_i       = x_i · cos − x_{i+d/2} · sin
//   x'_{i+d/2} = x_i · sin + x_{i+d/2} · cos
// Low i rotate fast (period 2π tokens for i = 0); high i rotate slowly (at theta = 5e5 and
// d = 128 the slowest pair turns by ~0.05 rad over 32K tokens), which is why key outlier channels,
// sitting in the slow pairs, survive RoPE. Angles are computed in double precision per position.

namespace lynxsim::accuracy {

// Rotates `tokens` rows of `head_dim` floats, row r at position first_position + r.
void apply_rope(float* rows, int tokens, int head_dim, int first_position, double theta);

}  // namespace lynxsim::accuracy
