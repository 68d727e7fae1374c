#pragma once
// A Llama-architecture decoder loaded from GGUF, with every weight dequantized to float once.
//
// Weights are row-major [out][in] float matrices, exactly the GGUF layout (dims[0] = in is the
// fastest dimension), so a projection of a row batch X [tokens][in] is X * W^T. Tensor names are
// llama.cpp's: token_embd, blk.N.{attn_norm, attn_q, attn_k, attn_v, attn_output, ffn_norm,
// ffn_gate, ffn_up, ffn_down}, output_norm, and output (absent when the head is tied to the
// embedding, as in SmolLM2; then token_embd serves both). q and k rows are in GGUF's rotary order
// (llama: adjacent channel pairs, see kv_cache.hpp; gemma3: halves, i with i + head_dim/2). Gemma 3
// adds blk.N.{attn_q_norm, attn_k_norm} (RMSNorm over each head's head_dim channels) and
// blk.N.{post_attention_norm, post_ffw_norm}; its norm weights are stored as the multiplier itself
// (the GGUF converter already added Gemma's 1 to the checkpoint's w), so every RMSNorm here is
// x / rms(x) * weight. Memory: 4 bytes per parameter (SmolLM2-135M: about 540 MB; Gemma 3 270M:
// about 1.1 GB, most of it the 262144 x 640 embedding). The model is immutable after loading and can be shared by any number of Sessions.

#include <filesystem>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "sim/llm/gguf_file.hpp"
#include "sim/llm/llama_config.hpp"
#include "sim/llm/tokenizer.hpp"

namespace lynxsim::llm {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct LayerWeights {
  Eigen::VectorXf attn_norm;
  Eigen::VectorXf ffn_norm;
  Eigen::VectorXf q_norm;          // [head_dim], gemma3 only (empty otherwise)
  Eigen::VectorXf k_norm;          // [head_dim], gemma3 only
  Eigen::VectorXf post_attn_norm;  // [n_embd], gemma3 only
  Eigen::VectorXf post_ffn_norm;   // [n_embd], gemma3 only
  RowMatrix wq;      // [q_dim][n_embd]
  RowMatrix wk;      // [kv_dim][n_embd]
  RowMatrix wv;      // [kv_dim][n_embd]
  RowMatrix wo;      // [n_embd][q_dim]
  RowMatrix w_gate;  // [n_ff][n_embd]
  RowMatrix w_up;    // [n_ff][n_embd]
  RowMatrix w_down;  // [n_embd][n_ff]
};

class Model {
public:
  // Throws GgufError (bad file) naming the path; see model_path.hpp for finding SmolLM2.
  static Model load(const std::filesystem::path& path);
  static Model from_gguf(const GgufFile& file);

  const LlamaConfig& config() const { return config_; }
  const LayerWeights& layer(int index) const { return layers_.at(static_cast<std::size_t>(index)); }
  const RowMatrix& token_embedding() const { return token_embd_; }  // [vocab][n_embd]
  const RowMatrix& output_head() const { return output_ ? *output_ : token_embd_; }
  const Eigen::VectorXf& output_norm() const { return output_norm_; }
  bool tied_output() const { return !output_.has_value(); }

  bool has_tokenizer() const { return tokenizer_.has_value(); }
  // Throws std::logic_error when the file had no tokenizer.ggml.* metadata.
  const Tokenizer& tokenizer() const;

private:
  LlamaConfig config_;
  std::vector<LayerWeights> layers_;
  RowMatrix token_embd_;
  std::optional<RowMatrix> output_;
  Eigen::VectorXf output_norm_;
  std::optional<Tokenizer> tokenizer_;
};

}  // namespace lynxsim::llm
