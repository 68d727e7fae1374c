#include "sim/llm/tensor_ops.hpp"

#include <algorithm>
#include <cmath>

namespace lynxsim::llm {
namespace {

constexpr int linear_slice = 128;

}  // namespace

void rms_norm_rows(const RowMatrix& x, const Eigen::VectorXf& weight, double eps, RowMatrix& y) {
  y.resize(x.rows(), x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const float mean_square = x.row(r).squaredNorm() / static_cast<float>(x.cols());
    const float scale = 1.0f / std::sqrt(mean_square + static_cast<float>(eps));
    y.row(r) = (x.row(r) * scale).cwiseProduct(weight.transpose());
  }
}

void rms_norm_heads(RowMatrix& x, const Eigen::VectorXf& weight, double eps) {
  const auto hd = weight.size();
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    for (Eigen::Index h = 0; h + hd <= x.cols(); h += hd) {
      auto slice = x.row(r).segment(h, hd);
      const float mean_square = slice.squaredNorm() / static_cast<float>(hd);
      const float scale = 1.0f / std::sqrt(mean_square + static_cast<float>(eps));
      slice = (slice * scale).cwiseProduct(weight.transpose());
    }
  }
}

void apply_rope(RowMatrix& x, int head_dim, double theta, int first_position, RopeLayout layout) {
  const int half = head_dim / 2;
  std::vector<float> cos_table(static_cast<std::size_t>(half));
  std::vector<float> sin_table(static_cast<std::size_t>(half));
  const Eigen::Index heads = x.cols() / head_dim;
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const double position = static_cast<double>(first_position + r);
    for (int i = 0; i < half; ++i) {
      const double angle = position * std::pow(theta, -2.0 * i / head_dim);
      cos_table[static_cast<std::size_t>(i)] = static_cast<float>(std::cos(angle));
      sin_table[static_cast<std::size_t>(i)] = static_cast<float>(std::sin(angle));
    }
    float* row = x.row(r).data();
    for (Eigen::Index h = 0; h < heads; ++h) {
      float* v = row + h * head_dim;
      const int stride = layout == RopeLayout::Halves ? 1 : 2;
      const int partner = layout == RopeLayout::Halves ? half : 1;
      for (int i = 0; i < half; ++i) {
        const float c = cos_table[static_cast<std::size_t>(i)];
        const float s = sin_table[static_cast<std::size_t>(i)];
        const float a = v[stride * i];
        const float b = v[stride * i + partner];
        v[stride * i] = a * c - b * s;
        v[stride * i + partner] = a * s + b * c;
      }
    }
  }
}

void silu_mul(RowMatrix& gate, const RowMatrix& up) {
  gate.array() = gate.array() / ((-gate.array()).exp() + 1.0f) * up.array();
}

void gelu_tanh_mul(RowMatrix& gate, const RowMatrix& up) {
  constexpr float k = 0.7978845608028654f;  // sqrt(2 / pi)
  const auto x = gate.array();
  gate.array() = 0.5f * x * (1.0f + (k * (x + 0.044715f * x.cube())).tanh()) * up.array();
}

void linear(ThreadPool& pool, const RowMatrix& x, const RowMatrix& w, RowMatrix& y) {
  y.resize(x.rows(), w.rows());
  const int out = static_cast<int>(w.rows());
  const int slices = (out + linear_slice - 1) / linear_slice;
  pool.run(slices, [&](int s) {
    const int first = s * linear_slice;
    const int count = std::min(linear_slice, out - first);
    y.middleCols(first, count).noalias() = x * w.middleRows(first, count).transpose();
  });
}

}  // namespace lynxsim::llm
