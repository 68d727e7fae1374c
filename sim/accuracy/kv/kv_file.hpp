#pragma once
// KV tensors captured from a real model (scripts/capture_kv.py writes them; docs/accuracy.md
// documents the layout).
//
// Tensors, for every layer l in [0, L):
//   k.{l}  [kv_heads][tokens][head_dim]   keys after RoPE, as the KV cache holds them
//   v.{l}  [kv_heads][tokens][head_dim]   values
//   q.{l}  [heads][n_queries][head_dim]   optional: queries after RoPE of the last n_queries prompt
//                                          positions (query i sits at tokens − n_queries + i)
// Containers: one .safetensors file with those names, or a directory of .npy files named
// k_{l}.npy, v_{l}.npy, q_{l}.npy. Element types F32, F16, BF16. Every layer must have k and v of the
// same shape; q is all-or-nothing across layers. Layers must be numbered 0..L−1 without gaps.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/accuracy/kv/tensor_file.hpp"

namespace lynxsim::accuracy {

class KvFile {
public:
  static KvFile open(const std::string& path);  // throws std::runtime_error on a malformed file

  int num_layers() const { return num_layers_; }
  int num_kv_heads() const { return num_kv_heads_; }
  int tokens() const { return tokens_; }
  int head_dim() const { return head_dim_; }
  bool has_queries() const { return num_query_heads_ > 0; }
  int num_query_heads() const { return num_query_heads_; }
  int num_queries() const { return num_queries_; }

  // The first `tokens` rows of one head, [tokens][head_dim].
  std::vector<float> keys(int layer, int kv_head, int tokens) const;
  std::vector<float> values(int layer, int kv_head, int tokens) const;
  // All queries of one query head, [n_queries][head_dim].
  std::vector<float> queries(int layer, int head) const;

  // Path, size and modification time: changes whenever the captured data may have changed.
  std::string identity() const { return identity_; }

private:
  const TensorInfo& tensor(const std::string& kind, int layer) const;
  void check_layout(const std::string& path);

  std::map<std::string, TensorInfo> tensors_;
  int num_layers_ = 0;
  int num_kv_heads_ = 0;
  int tokens_ = 0;
  int head_dim_ = 0;
  int num_query_heads_ = 0;
  int num_queries_ = 0;
  std::string identity_;
};

}  // namespace lynxsim::accuracy
