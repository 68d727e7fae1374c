#pragma once
// Captured KV tensors of a real model as the measurements read them: per layer, the keys (after
// RoPE) and values of every KV head over `tokens()` positions, and optionally the queries of the
// last num_queries() prompt positions of every query head (query i sits at tokens − n_queries + i).
// The store layer implements it on files (sim/store/kv_file.hpp); tests can implement it in memory.
// Reads may come from several threads at once.

#include <string>
#include <vector>

namespace lynxsim::accuracy {

class KvTensors {
public:
  virtual ~KvTensors() = default;

  virtual int num_layers() const = 0;
  virtual int num_kv_heads() const = 0;
  virtual int tokens() const = 0;
  virtual int head_dim() const = 0;
  virtual int num_query_heads() const = 0;  // 0 when there are no queries
  virtual int num_queries() const = 0;
  bool has_queries() const { return num_query_heads() > 0; }

  // The first `tokens` rows of one head, [tokens][head_dim].
  virtual std::vector<float> keys(int layer, int kv_head, int tokens) const = 0;
  virtual std::vector<float> values(int layer, int kv_head, int tokens) const = 0;
  // All queries of one query head, [n_queries][head_dim].
  virtual std::vector<float> queries(int layer, int head) const = 0;

  // Where the tensors come from, as the user named it (results say "file:<path>").
  virtual std::string path() const = 0;
  // Changes whenever the data may have changed (for a file: path, size and modification time).
  virtual std::string identity() const = 0;
};

}  // namespace lynxsim::accuracy
