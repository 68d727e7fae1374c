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
#include <memory>
#include <string>
#include <vector>

#include "sim/accuracy/kv/kv_tensors.hpp"
#include "sim/store/tensor_file.hpp"

namespace lynxsim::store {

class KvFile final : public accuracy::KvTensors {
public:
  // Throws std::invalid_argument (bad input, exit code 2) naming the file when it is missing or
  // malformed, io::InputFileError (exit code 2 too) when it is not a regular file (a FIFO, a device).
  static KvFile open(const std::string& path);
  // The same, shared, as the accuracy requests take it.
  static std::shared_ptr<const KvFile> open_shared(const std::string& path);

  int num_layers() const override { return num_layers_; }
  int num_kv_heads() const override { return num_kv_heads_; }
  int tokens() const override { return tokens_; }
  int head_dim() const override { return head_dim_; }
  int num_query_heads() const override { return num_query_heads_; }
  int num_queries() const override { return num_queries_; }

  std::vector<float> keys(int layer, int kv_head, int tokens) const override;
  std::vector<float> values(int layer, int kv_head, int tokens) const override;
  std::vector<float> queries(int layer, int head) const override;

  std::string path() const override { return path_; }
  // Path, size and modification time: changes whenever the captured data may have changed.
  std::string identity() const override { return identity_; }

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
  std::string path_;
  std::string identity_;
};

}  // namespace lynxsim::store
