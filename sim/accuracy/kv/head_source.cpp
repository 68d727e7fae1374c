#include "sim/accuracy/kv/head_source.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/accuracy/accuracy_rng.hpp"
#include "sim/accuracy/kv/query_model.hpp"
#include "sim/accuracy/kv/synthetic_kv.hpp"
#include "sim/accuracy/kv/synthetic_latent.hpp"

namespace lynxsim::accuracy {
namespace {

void check_file_geometry(const KvTensors& file, const AccuracyRequest& r) {
  const KvGeometry& g = r.geometry;
  if (file.num_layers() != g.num_layers || file.num_kv_heads() != g.num_kv_heads || file.head_dim() != g.head_dim) {
    throw std::invalid_argument("KV file " + file.path() + " has " + std::to_string(file.num_layers()) + " layers x " +
                                std::to_string(file.num_kv_heads()) + " KV heads x head dim " +
                                std::to_string(file.head_dim()) + ", the model " + g.model + " needs " +
                                std::to_string(g.num_layers) + " x " + std::to_string(g.num_kv_heads) + " x " +
                                std::to_string(g.head_dim));
  }
  if (file.has_queries() && file.num_query_heads() != g.num_heads) {
    throw std::invalid_argument("KV file " + file.path() + ": q tensors have " + std::to_string(file.num_query_heads()) +
                                " heads, the model has " + std::to_string(g.num_heads));
  }
  if (r.context > file.tokens()) {
    throw std::invalid_argument("KV file " + file.path() + " holds " + std::to_string(file.tokens()) +
                                " tokens, fewer than the context " + std::to_string(r.context));
  }
}

void captured_queries(HeadKv& block, const KvTensors& file, const KvGeometry& g, int wanted, int needles) {
  const int per_head = file.num_queries();
  const int group = g.group_size();
  const int total = per_head * group;
  const auto d = static_cast<std::size_t>(g.head_dim);
  std::vector<std::vector<float>> heads;
  for (int j = 0; j < group; ++j) heads.push_back(file.queries(block.layer, block.kv_head * group + j));
  const auto take = [&](int index) {
    const int head = index % group;
    const int i = index / group;
    const float* q = heads[static_cast<std::size_t>(head)].data() + static_cast<std::size_t>(i) * d;
    block.queries.insert(block.queries.end(), q, q + d);
    block.query_positions.push_back(block.tokens - per_head + i);
  };
  for (int k = 0; k < wanted; ++k) take(static_cast<int>(static_cast<long long>(k) * total / wanted));
  for (int k = 0; k < needles; ++k) take((per_head - 1) * group + k % group);
}

}  // namespace

HeadSource::HeadSource(const AccuracyRequest& request) : request_(request) {
  if (request.kv_file) {
    file_ = request.kv_file.get();
    check_file_geometry(*file_, request);
  }
}

int HeadSource::tokens(int layer) const {
  const KvGeometry& g = request_.geometry;
  if (g.layer_letter(layer) == 'S') return std::min(request_.context, g.sliding_window);
  return request_.context;
}

std::vector<int> HeadSource::positions(int layer, int kv_head) const {
  const int t = tokens(layer);
  const int q = request_.sampling.queries_per_head;
  AccuracyRng rng(derive_seed(request_.seed, "query-positions", layer, kv_head));
  std::vector<int> out;
  for (int i = 0; i < q; ++i) {
    const double at = t / 2.0 + (i + rng.uniform01()) * (t / 2.0) / q;
    out.push_back(std::clamp(static_cast<int>(at), 1, t - 1));
  }
  const int needles = t == request_.context ? request_.sampling.needle_probes : 0;
  for (int i = 0; i < needles; ++i) out.push_back(t - 1);
  return out;
}

HeadKv HeadSource::head(int layer, int kv_head) const {
  if (file_) return file_head(layer, kv_head);
  const KvGeometry& g = request_.geometry;
  if (g.latent()) {
    return generate_synthetic_latent(g, request_.profile, request_.layer_profiles.latent, layer, tokens(layer),
                                     positions(layer, kv_head), request_.seed);
  }
  return generate_synthetic_head(g, request_.profile, layer, kv_head, tokens(layer), positions(layer, kv_head),
                                 request_.seed);
}

HeadKv HeadSource::file_head(int layer, int kv_head) const {
  const KvGeometry& g = request_.geometry;
  HeadKv block;
  block.layer = layer;
  block.kv_head = kv_head;
  block.tokens = request_.context;
  block.head_dim = g.head_dim;
  block.keys = file_->keys(layer, kv_head, block.tokens);
  block.values = file_->values(layer, kv_head, block.tokens);
  const int wanted = request_.sampling.queries_per_head;
  const int needles = request_.sampling.needle_probes;
  if (file_->has_queries() && block.tokens == file_->tokens()) {
    captured_queries(block, *file_, g, wanted, needles);
    return block;
  }
  block.query_positions = positions(layer, kv_head);
  const std::vector<float> direction = key_mean_direction(block);
  AccuracyRng rng(derive_seed(request_.seed, "file-queries", layer, kv_head));
  const Range spread = request_.profile.queries.score_std.at(layer_depth(layer, g.num_layers));
  const QueryModelParams params{request_.profile.queries.outlier_energy, rng.uniform(spread.lo, spread.hi)};
  for (const int p : block.query_positions) {
    const std::vector<float> q = make_query(block, direction, p, params, rng);
    block.queries.insert(block.queries.end(), q.begin(), q.end());
  }
  return block;
}

}  // namespace lynxsim::accuracy
