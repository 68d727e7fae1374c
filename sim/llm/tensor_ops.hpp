#pragma once
// The per-token operations of a Llama block, on row batches (one row per token), float32.
//
//   RMSNorm:  y = x / sqrt(mean(x^2) + eps) * w
//   RoPE:     for each head and pair i < head_dim/2 at position p, angle = p *
//   theta^(-2i/head_dim),
//             (x[2i], x[2i+1]) <- (x[2i] cos - x[2i+1] sin, x[2i] sin + x[2i+1] cos)
//             (GGUF's adjacent-pair order; angles are computed in double, then rounded);
//             RopeLayout::Halves rotates (x[i], x[i + head_dim/2]) instead (GPT-NeoX order,
//             Gemma's GGUF files)
//   SwiGLU:   h = silu(gate) * up, silu(x) = x / (1 + e^-x)
//   GeGLU:    h = gelu(gate) * up, gelu(x) = x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
//   per-head RMSNorm: the RMSNorm above applied to each head_dim slice of a row (QK-norm)
//   Linear:   Y = X W^T with W row-major [out][in]
// The linear product is split over the pool in fixed slices of output columns, so each output
// value is computed by the same code whatever the number of threads: results are bit-identical
// across pool sizes.

#include <Eigen/Core>

#include "sim/llm/model.hpp"
#include "sim/llm/thread_pool.hpp"

namespace lynxsim::llm {

void rms_norm_rows(const RowMatrix& x, const Eigen::VectorXf& weight, double eps, RowMatrix& y);
// In place, every head_dim slice of every row; weight has head_dim entries.
void rms_norm_heads(RowMatrix& x, const Eigen::VectorXf& weight, double eps);

enum class RopeLayout { AdjacentPairs, Halves };

// Rotates each row of x (heads of head_dim channels side by side); row r is at position
// first_position + r.
void apply_rope(RowMatrix& x, int head_dim, double theta, int first_position,
                RopeLayout layout = RopeLayout::AdjacentPairs);

void silu_mul(RowMatrix& gate, const RowMatrix& up);
void gelu_tanh_mul(RowMatrix& gate, const RowMatrix& up);

// y = x * w^T, resized to [x.rows()][w.rows()].
void linear(ThreadPool& pool, const RowMatrix& x, const RowMatrix& w, RowMatrix& y);

}  // namespace lynxsim::llm
