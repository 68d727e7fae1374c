#include "sim/llm/attention.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lynxsim::llm {
namespace {

constexpr int query_block = 64;

using ConstRowMap = Eigen::Map<const RowMatrix>;

// Column j of scores is position key0 + j; row i is the query at first_position + i.
void softmax_causal(const AttentionInput& in, RowMatrix& scores, int first_position, int key0) {
  for (Eigen::Index i = 0; i < scores.rows(); ++i) {
    const int position = first_position + static_cast<int>(i);
    const Eigen::Index begin = in.config->first_visible(in.layer, position) - key0;
    const Eigen::Index visible = position + 1 - key0 - begin;
    auto row = scores.row(i).segment(begin, visible).array();
    const float peak = row.maxCoeff();
    row = (row - peak).exp();
    row /= row.sum();
    scores.row(i).head(begin).setZero();
    scores.row(i).tail(scores.cols() - begin - visible).setZero();
  }
}

void attend_block(const AttentionInput& in, const RowMatrix& q, int head, int first_row,
                  RowMatrix& out) {
  const LlamaConfig& c = *in.config;
  const int hd = c.head_dim;
  const int kv_head = head / c.group_size();
  const int rows = std::min(query_block, static_cast<int>(q.rows()) - first_row);
  const int first_position = in.first_position + first_row;
  const int context = first_position + rows;
  const int key0 = c.first_visible(in.layer, first_position);
  const auto offset = static_cast<std::size_t>(key0) * static_cast<std::size_t>(hd);
  const ConstRowMap keys(in.cache->keys(in.layer, kv_head).data() + offset, context - key0, hd);
  const ConstRowMap values(in.cache->values(in.layer, kv_head).data() + offset, context - key0,
                           hd);
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  RowMatrix scores(rows, context - key0);
  scores.noalias() = q.block(first_row, head * hd, rows, hd) * keys.transpose();
  scores *= scale;
  softmax_causal(in, scores, first_position, key0);
  out.block(first_row, head * hd, rows, hd).noalias() = scores * values;
}

}  // namespace

void causal_attention(ThreadPool& pool, const AttentionInput& input, const RowMatrix& q,
                      RowMatrix& out) {
  const LlamaConfig& c = *input.config;
  if (q.cols() != c.q_dim() || input.cache->size() < input.first_position + q.rows()) {
    throw std::invalid_argument("causal_attention: query shape or cache length mismatch");
  }
  out.resize(q.rows(), q.cols());
  const int blocks = (static_cast<int>(q.rows()) + query_block - 1) / query_block;
  pool.run(c.n_heads * blocks, [&](int task) {
    attend_block(input, q, task % c.n_heads, (task / c.n_heads) * query_block, out);
  });
}

}  // namespace lynxsim::llm
